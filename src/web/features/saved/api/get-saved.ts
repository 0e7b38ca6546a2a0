import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";

export type SavedPage = paths["/api/me/saved"]["get"]["responses"][200]["content"]["application/json"];
export type SavedPost = SavedPage["items"][number];

export const savedQueryKeys = {
  all: ["saved-posts"] as const,
};

export const fetchSavedPage = (cursor: string | null) =>
  unwrap(api.GET("/api/me/saved", { params: { query: cursor ? { cursor } : {} } }));

/** The signed-in user's saved posts, newest saved first, a page at a time. */
export const savedQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: savedQueryKeys.all,
    queryFn: ({ pageParam }) => fetchSavedPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

export function useSaved(enabled: boolean) {
  return useInfiniteQuery({ ...savedQueryOptions(), enabled });
}
