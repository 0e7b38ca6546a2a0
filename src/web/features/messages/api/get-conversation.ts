import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { type MessagePage, messageQueryKeys } from "./message-keys";
import { request } from "./request";

export function fetchConversation(id: string, before: string | null) {
  const query = before ? `?before=${encodeURIComponent(before)}` : "";
  return request<MessagePage>("GET", `/api/conversations/${encodeURIComponent(id)}${query}`);
}

export const conversationQueryOptions = (id: string) =>
  infiniteQueryOptions({
    queryKey: messageQueryKeys.conversation(id),
    queryFn: ({ pageParam }) => fetchConversation(id, pageParam),
    initialPageParam: null as string | null,
    // Pages go backwards in time: the "next" page holds older messages.
    getNextPageParam: (last) => last.next_cursor,
  });

/** One conversation: the newest page first, older pages as they are asked for. */
export function useConversation(id: string) {
  return useInfiniteQuery(conversationQueryOptions(id));
}
