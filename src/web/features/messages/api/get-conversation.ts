import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { messageQueryKeys } from "./message-keys";

export const fetchConversation = (id: string, before: string | null) =>
  unwrap(api.GET("/api/conversations/{id}", { params: { path: { id }, query: { before: before ?? undefined } } }));

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
