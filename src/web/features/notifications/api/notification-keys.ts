import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { paths } from "#web/lib/api-types";

export type NotificationsPage = paths["/api/notifications"]["get"]["responses"][200]["content"]["application/json"];
export type Notification = NotificationsPage["items"][number];
export type NotificationFilter = "all" | "unread";
type UnreadCount = { unread_count: number };

/** Every notifications query key is built here; all of them start with "notifications". */
export const notificationQueryKeys = {
  all: ["notifications"] as const,
  unreadCount: () => ["notifications", "unread-count"] as const,
  /** The bell's dropdown: the newest few. */
  latest: () => ["notifications", "latest"] as const,
  /** /notifications, a page at a time. */
  pages: (filter: NotificationFilter) => ["notifications", "pages", filter] as const,
  /** Prefix of every page of /notifications, whatever its filter. */
  allPages: () => ["notifications", "pages"] as const,
  /** Mark-read calls, so a late answer does not overwrite the count of a newer click. */
  markRead: ["notifications", "mark-read"] as const,
};

export function setUnreadCount(queryClient: QueryClient, count: number) {
  queryClient.setQueryData<UnreadCount>(notificationQueryKeys.unreadCount(), { unread_count: Math.max(0, count) });
}

export function getUnreadCount(queryClient: QueryClient): number {
  return queryClient.getQueryData<UnreadCount>(notificationQueryKeys.unreadCount())?.unread_count ?? 0;
}

/** Applies `update` to every cached notification: the dropdown's and every page of /notifications. */
export function patchNotifications(queryClient: QueryClient, update: (n: Notification) => Notification) {
  queryClient.setQueryData<NotificationsPage>(notificationQueryKeys.latest(), (page) =>
    page ? { ...page, items: page.items.map(update) } : page,
  );
  queryClient.setQueriesData<InfiniteData<NotificationsPage, string | null>>(
    { queryKey: notificationQueryKeys.allPages() },
    (data) =>
      data ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map(update) })) } : data,
  );
}

/** Stream events and a failed optimistic change: everything notifications-related is read again. */
export function invalidateNotifications(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: notificationQueryKeys.all });
}
