import { useMutation } from "@tanstack/react-query";
import { authPost } from "#web/lib/api";

/** Starts Google sign-in; the answer's url is Google's consent page. */
export const socialSignIn = () =>
  authPost<{ url?: string }>("/sign-in/social", { provider: "google", callbackURL: "/signup/pricing" });

export function useSocialSignIn() {
  return useMutation({ mutationFn: socialSignIn });
}
