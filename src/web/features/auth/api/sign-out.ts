import { useMutation } from "@tanstack/react-query";
import { authPost } from "#web/lib/api";

export const signOut = () => authPost("/sign-out", {});

export function useSignOut() {
  return useMutation({ mutationFn: signOut });
}
