export const STRENGTH_LABELS = ["Weak", "Weak", "Fair", "Good", "Strong", "Very Strong"] as const;

/** Strength meter 0-5 (SPEC §5): a point each for length >= 8, length >= 12, mixed case, a digit, a special character. */
export function passwordStrength(password: string): { score: number; label: string } {
  let score = 0;
  if (password.length >= 8) score++;
  if (password.length >= 12) score++;
  if (/[a-z]/.test(password) && /[A-Z]/.test(password)) score++;
  if (/\d/.test(password)) score++;
  if (/[^A-Za-z0-9]/.test(password)) score++;
  return { score, label: STRENGTH_LABELS[score] };
}
