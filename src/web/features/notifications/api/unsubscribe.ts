import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { notificationSettingsQueryOptions } from "#web/features/account";

/** The digest's unsubscribe link: turns email notifications off, signed in or not. */
export const unsubscribeFromEmails = (token: string) =>
  unwrap(api.POST("/api/notifications/unsubscribe", { body: { token } }));

export function useUnsubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unsubscribeFromEmails,
    // The settings tab must not show emails as still on.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationSettingsQueryOptions().queryKey }),
  });
}
