import { ResetPasswordPage } from "#web/features/auth/components/reset-password-page";

export function ResetPasswordRoute() {
  return <ResetPasswordPage />;
}
