import { useMutation } from "@tanstack/react-query";
import { authPost } from "#web/lib/api";

export type SignInInput = { email: string; password: string };
export type SignInResult = { twoFactorRedirect?: boolean; redirect?: boolean; url?: string };

/** Persistent session (SPEC §7); `twoFactorRedirect` means a code is needed next. */
export const signIn = ({ email, password }: SignInInput) =>
  authPost<SignInResult>("/sign-in/email", { email, password, rememberMe: true });

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
