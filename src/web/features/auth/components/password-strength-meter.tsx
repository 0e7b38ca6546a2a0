import { passwordStrength } from "#shared/password-strength";
import { cn } from "#web/lib/cn";

const colors = ["bg-red-600", "bg-red-600", "bg-amber-500", "bg-yellow-500", "bg-lime-600", "bg-emerald-600"];
const textColors = [
  "text-red-700",
  "text-red-700",
  "text-amber-800",
  "text-yellow-800",
  "text-lime-800",
  "text-emerald-800",
];

/** Strength meter 0-5 (SPEC §5). */
export function PasswordStrengthMeter({ password }: { password: string }) {
  if (!password) return null;
  const { score, label } = passwordStrength(password);
  return (
    <div className="space-y-1.5" aria-live="polite">
      <div className="flex gap-1" aria-hidden="true">
        {[1, 2, 3, 4, 5].map((step) => (
          <span
            key={step}
            className={cn(
              "h-1.5 flex-1 rounded-full transition-colors",
              step <= score ? colors[score] : "bg-stone-200",
            )}
          />
        ))}
      </div>
      <p className="text-xs text-stone-600">
        Password strength: <span className={cn("font-semibold", textColors[score])}>{label}</span>
      </p>
    </div>
  );
}
