import { useMutation } from "@tanstack/react-query";
import { authPost } from "#web/lib/api";

export type SecondFactorInput = { code: string; method: "totp" | "backup" };

/** Finishes a sign-in that asked for a second factor: an authenticator code or a backup code. */
export const verifySecondFactor = ({ code, method }: SecondFactorInput) =>
  authPost(method === "totp" ? "/two-factor/verify-totp" : "/two-factor/verify-backup-code", { code });

export function useVerifySecondFactor() {
  return useMutation({ mutationFn: verifySecondFactor });
}
