import { useMutation } from "@tanstack/react-query";
import { authPost } from "#web/lib/api";

export type SignUpInput = { name: string; username: string; email: string; password: string; callbackURL: string };

/** Answers the same whether or not the email exists; a confirmation email follows. */
export const signUp = (input: SignUpInput) => authPost("/sign-up/email", input);

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
