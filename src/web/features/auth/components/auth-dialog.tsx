import { MailCheck } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "#web/lib/toast";
import { safeRedirectPath } from "#shared/safe-redirect";
import { LogoMark } from "#web/components/layout/logo";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { FormMessage } from "#web/components/ui/form-message";
import type { AuthDialogRequest } from "#web/lib/auth-dialog-events";
import { usePublicConfig } from "#web/lib/public-config";
import { useRefreshSession } from "#web/lib/session";
import { ForgotForm } from "./forgot-form";
import { LoginForm } from "./login-form";
import { SignUpForm } from "./signup-form";
import { TwoFactorForm } from "./two-factor-form";

type View = "login" | "signup" | "forgot" | "twoFactor" | "success" | "resetSent";

const headings: Record<View, { title: string; description: string }> = {
  login: { title: "Welcome back", description: "Log in to your Hearth account." },
  signup: {
    title: "Create your account",
    description: "Join communities, take courses, and start your own.",
  },
  forgot: {
    title: "Reset your password",
    description: "Enter the email you signed up with and we'll send you a link to choose a new password.",
  },
  twoFactor: {
    title: "Two-step verification",
    description: "Your account is protected with two-step sign-in.",
  },
  success: { title: "Check your email", description: "One more step to finish creating your account." },
  resetSent: { title: "Check your email", description: "A password reset link is on its way." },
};

/**
 * The one auth dialog of the app (SPEC §2, §4): login, signup and forgot modes with success and
 * resetSent confirmations. The host remounts it 300 ms after closing, which resets every field.
 */
export function AuthDialog({
  open,
  onOpenChange,
  request,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  request: AuthDialogRequest;
}) {
  const [view, setView] = useState<View>(request.mode);
  const [email, setEmail] = useState(request.email ?? "");
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const config = usePublicConfig();
  const { title, description } = headings[view];

  // Switching views replaces the focused control: start again at the new view's first one.
  const content = useRef<HTMLDivElement>(null);
  const viewChanged = useRef(false);
  useEffect(() => {
    if (!viewChanged.current) {
      viewChanged.current = true;
      return;
    }
    content.current?.querySelector<HTMLElement>("form input, form button, [data-autofocus]")?.focus();
  }, [view]);

  const onSignedIn = async () => {
    await refreshSession();
    onOpenChange(false);
    toast.success("You're signed in. Welcome to Hearth!");
    // Only same-origin relative paths are followed; anything else goes home.
    if (request.redirect !== undefined) navigate(safeRedirectPath(request.redirect));
  };

  const showNote = request.message && (view === "login" || view === "signup");

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        ref={content}
        title={title}
        description={description}
        header={
          <div className="px-6 pt-6 sm:px-8 sm:pt-8">
            <LogoMark size="lg" />
          </div>
        }
      >
        <div className="px-6 pt-6 pb-6 sm:px-8 sm:pb-8">
          {showNote && (
            <FormMessage tone="info" className="mb-4">
              {request.message}
            </FormMessage>
          )}
          {view === "login" && (
            <LoginForm
              defaultEmail={email}
              onSignedIn={onSignedIn}
              onTwoFactor={() => setView("twoFactor")}
              onForgot={(typed) => {
                setEmail(typed);
                setView("forgot");
              }}
              onSignUp={() => setView("signup")}
            />
          )}
          {view === "signup" && (
            <SignUpForm
              defaultEmail={email}
              redirect={request.redirect}
              onSuccess={(sentTo) => {
                setEmail(sentTo);
                setView("success");
              }}
              onLogIn={() => setView("login")}
            />
          )}
          {view === "forgot" && (
            <ForgotForm
              defaultEmail={email}
              onSent={(sentTo) => {
                setEmail(sentTo);
                setView("resetSent");
              }}
              onBack={() => setView("login")}
            />
          )}
          {view === "twoFactor" && <TwoFactorForm onSignedIn={onSignedIn} onBack={() => setView("login")} />}
          {(view === "success" || view === "resetSent") && (
            <div className="text-center">
              <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-emerald-50 text-emerald-700">
                <MailCheck className="size-7" aria-hidden="true" />
              </span>
              <p className="mt-4 text-stone-700" role="status">
                {view === "success" ? (
                  <>
                    We sent a confirmation email to <strong className="text-stone-900">{email}</strong>. Open the link
                    in it to confirm your address and sign in.
                  </>
                ) : (
                  <>
                    If an account exists for <strong className="text-stone-900">{email}</strong>, we sent it a link to
                    reset your password. The link works once, for 20 minutes.
                  </>
                )}
              </p>
              {config.data?.mail_transport === "outbox" && (
                <p className="mt-3 text-sm text-stone-600">
                  This Hearth has no mail server yet: on the machine that runs it, messages wait in the{" "}
                  <a className="font-medium text-brand-800 underline underline-offset-2" href="/dev/mailbox">
                    local mailbox
                  </a>
                  .
                </p>
              )}
              {config.data?.mail_transport === "held" && (
                <p className="mt-3 text-sm text-stone-600">
                  This Hearth has no mail server yet: its operators keep the message until it can be passed on.
                </p>
              )}
              <div className="mt-6 flex flex-col gap-2">
                {view === "resetSent" && (
                  <Button size="lg" className="w-full" onClick={() => setView("login")} data-autofocus>
                    Back to log in
                  </Button>
                )}
                <Button
                  variant={view === "resetSent" ? "ghost" : "primary"}
                  data-autofocus={view === "success" || undefined}
                  size="lg"
                  className="w-full"
                  onClick={() => onOpenChange(false)}
                >
                  Done
                </Button>
              </div>
            </div>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
