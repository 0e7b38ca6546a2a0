import { PasswordField } from "#web/components/ui/field";
import { PasswordStrengthMeter } from "./password-strength-meter";

/** A new password, with its strength shown once typing starts, then the same again to confirm it. */
export function NewPasswordFields({
  password,
  onPasswordChange,
  confirm,
  onConfirmChange,
  autoFocus,
}: {
  password: string;
  onPasswordChange: (password: string) => void;
  confirm: string;
  onConfirmChange: (confirm: string) => void;
  autoFocus?: boolean;
}) {
  return (
    <>
      <PasswordField
        label="New Password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => onPasswordChange(e.target.value)}
        hint={password ? <PasswordStrengthMeter password={password} /> : undefined}
        autoFocus={autoFocus}
      />
      <PasswordField
        label="Confirm New Password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => onConfirmChange(e.target.value)}
      />
    </>
  );
}
