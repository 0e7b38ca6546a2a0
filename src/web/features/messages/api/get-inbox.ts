import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { messageQueryKeys } from "./message-keys";

export const fetchInbox = ({ q, cursor }: { q: string; cursor: string | null }) =>
  unwrap(api.GET("/api/conversations", { params: { query: { q: q || undefined, cursor: cursor ?? undefined } } }));

export const inboxQueryOptions = (q: string) =>
  infiniteQueryOptions({
    queryKey: messageQueryKeys.inbox(q),
    queryFn: ({ pageParam }) => fetchInbox({ q, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

/** The inbox, newest conversation first, filtered by the other person's name. */
export function useInbox(q: string) {
  return useInfiniteQuery({ ...inboxQueryOptions(q), placeholderData: keepPreviousData });
}
