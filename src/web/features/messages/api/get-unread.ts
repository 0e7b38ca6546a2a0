import { queryOptions, useQuery } from "@tanstack/react-query";
import { messageQueryKeys } from "./message-keys";
import { api, unwrap } from "#web/lib/api";

export const fetchUnreadConversations = () => unwrap(api.GET("/api/messages/unread-count")).then((r) => r.unread);

export const unreadConversationsQueryOptions = () =>
  queryOptions({ queryKey: messageQueryKeys.unread(), queryFn: fetchUnreadConversations });

/** The header's badge: conversations with unread messages. Kept fresh by the tab's stream, not by polling. */
export function useUnreadConversations() {
  return useQuery(unreadConversationsQueryOptions());
}
