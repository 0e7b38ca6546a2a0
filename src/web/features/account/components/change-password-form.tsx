import { LogOut } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { MSG } from "#shared/messages";
import { checkNewPassword } from "#shared/validation";
import { Button } from "#web/components/ui/button";
import { PasswordField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { errorMessage } from "#web/lib/api";
import { useFlashMessage } from "#web/lib/use-flash-message";
import { NewPasswordFields } from "#web/features/auth";
import { useChangePassword } from "../api/change-password";

export function ChangePasswordForm({
  email,
  onDirtyChange,
}: {
  email: string;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const change = useChangePassword();
  const flash = useFlashMessage();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const dirty = Boolean(current || next || confirm);

  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    flash.clear();
    change.reset();
    const invalid = !current
      ? "Please enter your current password"
      : checkNewPassword(next, confirm, MSG.newPasswordsMismatch);
    setProblem(invalid);
    if (invalid) return;
    try {
      await change.mutateAsync({ currentPassword: current, newPassword: next });
      setCurrent("");
      setNext("");
      setConfirm("");
      flash.show("Your password has been updated.");
    } catch {
      // shown from change.error
    }
  };

  const failure =
    change.error &&
    (change.error.message === MSG.currentPasswordIncorrect
      ? MSG.currentPasswordIncorrect
      : errorMessage(change.error, MSG.passwordUpdateFailed, ["PASSWORD_TOO_SHORT", "VALIDATION"]));

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {/* Lets password managers file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <PasswordField
        label="Current Password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <NewPasswordFields password={next} onPasswordChange={setNext} confirm={confirm} onConfirmChange={setConfirm} />
      </div>
      {(problem || failure) && <FormMessage tone="error">{problem ?? failure}</FormMessage>}
      {flash.message && <FormMessage tone="success">{flash.message}</FormMessage>}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="flex items-center gap-2 text-sm text-stone-600">
          <LogOut className="size-4 shrink-0" aria-hidden="true" />
          Changing your password signs you out on your other devices.
        </p>
        <Button type="submit" loading={change.isPending}>
          Update password
        </Button>
      </div>
    </form>
  );
}
