import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { notificationQueryKeys } from "./notification-keys";

export const fetchUnreadCount = () => unwrap(api.GET("/api/notifications/unread-count"));

export const unreadCountQueryOptions = () =>
  queryOptions({ queryKey: notificationQueryKeys.unreadCount(), queryFn: fetchUnreadCount });

/** The bell's badge. Kept fresh by the notification stream, not by polling. */
export function useUnreadCount() {
  return useQuery(unreadCountQueryOptions());
}
