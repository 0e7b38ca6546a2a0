import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import {
  invalidateNotifications,
  notificationQueryKeys,
  patchNotifications,
  setUnreadCount,
} from "./notification-keys";

export const markAllNotificationsRead = () => unwrap(api.POST("/api/notifications/read-all"));

/** 'Mark all as read' (SPEC §4): everything shows as read and the badge goes at once. */
export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: notificationQueryKeys.unreadCount() });
      const readAt = new Date().toISOString();
      patchNotifications(queryClient, (n) => (n.is_read ? n : { ...n, is_read: true, read_at: readAt }));
      setUnreadCount(queryClient, 0);
    },
    onError: () => invalidateNotifications(queryClient),
    onSuccess: (result) => {
      setUnreadCount(queryClient, result.unread_count);
      void queryClient.invalidateQueries({ queryKey: notificationQueryKeys.pages("unread") });
    },
  });
}
