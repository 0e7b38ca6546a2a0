import { CircleCheck, KeyRound, LinkIcon } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { LIMITS } from "#shared/limits";
import { MSG } from "#shared/messages";
import { checkNewPassword } from "#shared/validation";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { useResetPassword } from "../api/reset-password";
import { NewPasswordFields } from "./new-password-fields";

/** Target of the reset email (SPEC §2): choose a new password, then home after 3 s. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const linkBroken = !token || params.has("error");
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!reset.isSuccess) return;
    const timer = window.setTimeout(() => navigate("/", { replace: true }), LIMITS.resetRedirectMs);
    return () => window.clearTimeout(timer);
  }, [reset.isSuccess, navigate]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = checkNewPassword(password, confirm, MSG.passwordsMismatch);
    setProblem(invalid);
    if (invalid || !token) return;
    reset.mutate({ newPassword: password, token });
  };

  const tokenRejected = reset.error?.message === MSG.invalidResetLink;

  return (
    <main id="main" className="flex min-h-[calc(100vh-4rem)] items-start justify-center px-4 py-12 sm:py-20">
      <title>Reset your password · Hearth</title>
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-stone-200 sm:p-8">
        <span className="flex size-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
          <KeyRound className="size-6" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-stone-900">Choose a new password</h1>

        {linkBroken || tokenRejected ? (
          <div className="mt-5 space-y-5">
            <FormMessage tone="error">{MSG.invalidResetLink}</FormMessage>
            <Button className="w-full" size="lg" onClick={() => openAuthDialog({ mode: "forgot" })}>
              <LinkIcon className="size-4" aria-hidden="true" />
              Request a new link
            </Button>
          </div>
        ) : reset.isSuccess ? (
          <div className="mt-5">
            <FormMessage tone="success">
              <p className="font-semibold">Your password has been reset.</p>
              <p>You can now log in with your new password. Taking you home…</p>
            </FormMessage>
            <div className="mt-5 flex items-center gap-2 text-sm text-stone-600">
              <CircleCheck className="size-4 text-emerald-700" aria-hidden="true" />
              Other devices were signed out for your safety.
            </div>
          </div>
        ) : (
          <form onSubmit={submit} noValidate className="mt-5 space-y-4">
            <p className="text-sm text-stone-600">
              Pick something you don&apos;t use elsewhere: at least {LIMITS.passwordMin} characters.
            </p>
            {(problem || reset.error) && <FormMessage tone="error">{problem ?? reset.error?.message}</FormMessage>}
            <NewPasswordFields
              password={password}
              onPasswordChange={setPassword}
              confirm={confirm}
              onConfirmChange={setConfirm}
              autoFocus
            />
            <Button type="submit" size="lg" className="w-full" loading={reset.isPending}>
              Reset password
            </Button>
          </form>
        )}
      </div>
    </main>
  );
}
