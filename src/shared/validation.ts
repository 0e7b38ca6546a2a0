import { LIMITS } from "./limits";
import { MSG } from "./messages";

export const USERNAME_RE = /^[a-z0-9_]{3,30}$/;

/** Usernames are forced lowercase before they are checked. */
export const normalizeUsername = (value: string) => value.trim().toLowerCase();

/** Checks both password fields of a change or reset form; returns the spec's message or null. */
export function checkNewPassword(password: string, confirm: string, mismatch: string): string | null {
  if (password !== confirm) return mismatch;
  if (password.length < LIMITS.passwordMin) return MSG.passwordTooShort;
  if (password.length > LIMITS.passwordMax) return `Password must be at most ${LIMITS.passwordMax} characters long`;
  return null;
}
