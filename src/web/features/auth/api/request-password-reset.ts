import { useMutation } from "@tanstack/react-query";
import { authPost } from "#web/lib/api";

export const requestPasswordReset = ({ email }: { email: string }) =>
  authPost("/request-password-reset", { email, redirectTo: "/reset-password" });

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
