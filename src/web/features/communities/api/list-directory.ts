import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import type { CommunityCategory } from "#shared/communities";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "./get-community";

export type DirectoryPage = paths["/api/communities"]["get"]["responses"][200]["content"]["application/json"];
export type DirectoryCard = DirectoryPage["items"][number];

export type DirectoryFilters = { category?: CommunityCategory; q?: string };

/** Cards per page: divides into rows of 1, 2, 3 and 4. */
export const DIRECTORY_PAGE_SIZE = 12;

/** Empty filters are left out, so `/` and `/?q=` share one cached list. */
function normalize({ category, q }: DirectoryFilters): DirectoryFilters {
  const term = q?.trim();
  return { ...(category ? { category } : {}), ...(term ? { q: term } : {}) };
}

export const fetchDirectoryPage = (filters: DirectoryFilters, cursor?: string, signal?: AbortSignal) =>
  unwrap(
    api.GET("/api/communities", {
      params: { query: { ...normalize(filters), cursor, limit: DIRECTORY_PAGE_SIZE } },
      signal,
    }),
  );

export const directoryQueryOptions = (filters: DirectoryFilters) => {
  const normalized = normalize(filters);
  return infiniteQueryOptions({
    queryKey: communityQueryKeys.directory(normalized),
    queryFn: ({ pageParam, signal }) => fetchDirectoryPage(normalized, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
};

/** While another category or keyword loads, the previous cards stay (dimmed) instead of skeletons. */
export function useDirectory(filters: DirectoryFilters) {
  return useInfiniteQuery({ ...directoryQueryOptions(filters), placeholderData: keepPreviousData });
}
