import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { NOTIFICATION_LIMITS } from "#shared/notifications";
import { api, unwrap } from "#web/lib/api";
import { type NotificationFilter, notificationQueryKeys, setUnreadCount } from "./notification-keys";

export const fetchNotifications = (query: { filter: NotificationFilter; limit: number; cursor?: string | null }) =>
  unwrap(
    api.GET("/api/notifications", {
      params: {
        query: { filter: query.filter, limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) },
      },
    }),
  );

/** The bell's dropdown: the newest ten. Its unread count is fresher than the badge's: it becomes the badge's. */
export const latestNotificationsQueryOptions = () =>
  queryOptions({
    queryKey: notificationQueryKeys.latest(),
    queryFn: async ({ client }) => {
      const page = await fetchNotifications({ filter: "all", limit: NOTIFICATION_LIMITS.dropdown });
      setUnreadCount(client, page.unread_count);
      return page;
    },
  });

export function useLatestNotifications() {
  return useQuery(latestNotificationsQueryOptions());
}

/** /notifications: everything (or the unread ones), newest first, a page at a time. */
export const notificationPagesQueryOptions = (filter: NotificationFilter) =>
  infiniteQueryOptions({
    queryKey: notificationQueryKeys.pages(filter),
    queryFn: async ({ pageParam, client }) => {
      const page = await fetchNotifications({ filter, limit: NOTIFICATION_LIMITS.page, cursor: pageParam });
      setUnreadCount(client, page.unread_count);
      return page;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

export function useNotificationPages(filter: NotificationFilter, enabled: boolean) {
  return useInfiniteQuery({ ...notificationPagesQueryOptions(filter), enabled });
}
