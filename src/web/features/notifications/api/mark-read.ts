import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import {
  type Notification,
  getUnreadCount,
  invalidateNotifications,
  notificationQueryKeys,
  patchNotifications,
  setUnreadCount,
} from "./notification-keys";

export const markNotificationRead = (id: string) =>
  unwrap(api.POST("/api/notifications/{id}/read", { params: { path: { id } } }));

/**
 * A click on a notification (SPEC §4): it shows as read and the count drops at once (never below
 * 0); the server's count follows. A failed call reads everything again.
 */
export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  const mutationKey = notificationQueryKeys.markRead;
  return useMutation({
    mutationKey,
    mutationFn: (notification: Notification) => markNotificationRead(notification.id),
    onMutate: async (notification) => {
      if (notification.is_read) return;
      await queryClient.cancelQueries({ queryKey: notificationQueryKeys.unreadCount() });
      const readAt = new Date().toISOString();
      patchNotifications(queryClient, (n) => (n.id === notification.id ? { ...n, is_read: true, read_at: readAt } : n));
      setUnreadCount(queryClient, getUnreadCount(queryClient) - 1);
    },
    onError: () => invalidateNotifications(queryClient),
    onSuccess: (result) => {
      // The Unread list no longer holds it; the next look at that list reads it again.
      void queryClient.invalidateQueries({ queryKey: notificationQueryKeys.pages("unread") });
      if (queryClient.isMutating({ mutationKey }) > 1) return;
      setUnreadCount(queryClient, result.unread_count);
    },
  });
}
