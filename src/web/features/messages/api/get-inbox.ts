import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { type Inbox, messageQueryKeys } from "./message-keys";
import { request } from "./request";

export function fetchInbox({ q, cursor }: { q: string; cursor: string | null }) {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (cursor) params.set("cursor", cursor);
  const query = params.toString();
  return request<Inbox>("GET", `/api/conversations${query ? `?${query}` : ""}`);
}

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
