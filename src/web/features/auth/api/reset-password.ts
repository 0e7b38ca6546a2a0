import { useMutation } from "@tanstack/react-query";
import { authPost } from "#web/lib/api";

export const resetPassword = ({ newPassword, token }: { newPassword: string; token: string }) =>
  authPost("/reset-password", { newPassword, token });

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
