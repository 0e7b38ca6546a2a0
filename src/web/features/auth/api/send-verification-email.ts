import { useMutation } from "@tanstack/react-query";
import { authPost } from "#web/lib/api";

export const sendVerificationEmail = ({ email }: { email: string }) =>
  authPost("/send-verification-email", { email, callbackURL: "/" });

export function useSendVerificationEmail() {
  return useMutation({ mutationFn: sendVerificationEmail });
}
