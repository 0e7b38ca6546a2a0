import { queryOptions, useQuery } from "@tanstack/react-query";
import { messageQueryKeys } from "./message-keys";
import { request } from "./request";

export const fetchUnreadConversations = () =>
  request<{ unread: number }>("GET", "/api/messages/unread-count").then((r) => r.unread);

export const unreadConversationsQueryOptions = () =>
  queryOptions({ queryKey: messageQueryKeys.unread(), queryFn: fetchUnreadConversations });

/** The header's badge: conversations with unread messages. Kept fresh by the tab's stream, not by polling. */
export function useUnreadConversations() {
  return useQuery(unreadConversationsQueryOptions());
}
