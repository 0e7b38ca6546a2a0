import { useMutation } from "@tanstack/react-query";
import { authPost } from "#web/lib/api";

/** The server also ends every other session of the user. */
export const changePassword = (input: { currentPassword: string; newPassword: string }) =>
  authPost("/change-password", input);

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
