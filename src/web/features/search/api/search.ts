import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { SearchKind } from "#shared/search";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { type SearchFilters, searchQueryOf } from "../search-params";

export type SearchResponse = paths["/api/search"]["get"]["responses"][200]["content"]["application/json"];

/** One community (its id), or every community the viewer may read. */
export type SearchScope = { communityId: string } | null;

export const searchQueryKeys = {
  all: ["search"] as const,
  results: (scope: SearchScope, filters: SearchFilters) =>
    [...searchQueryKeys.all, scope?.communityId ?? "*", filters] as const,
};

/** A page of results; `signal` cancels it when a newer query replaces it. */
export const fetchSearch = (
  scope: SearchScope,
  filters: SearchFilters,
  { cursor, signal }: { cursor?: string | null; signal?: AbortSignal } = {},
) => {
  const query = searchQueryOf(filters, cursor);
  return unwrap(
    scope
      ? api.GET("/api/communities/{communityId}/search", {
          params: { path: { communityId: scope.communityId }, query },
          signal,
        })
      : api.GET("/api/search", { params: { query }, signal }),
  );
};

/** The first page of every kind (or of the chosen kind), grouped; empty queries ask nothing. */
export function useSearch(scope: SearchScope, filters: SearchFilters) {
  return useQuery({
    queryKey: searchQueryKeys.results(scope, filters),
    queryFn: ({ signal }) => fetchSearch(scope, filters, { signal }),
    enabled: filters.q.trim() !== "",
    // While the next query loads, the last results stay (no flash between keystrokes).
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** Further pages of one kind, from the cursor its first page ended at; asked for on "Load more". */
export function useMoreResults(
  scope: SearchScope,
  filters: SearchFilters,
  kind: SearchKind,
  firstCursor: string | null,
  enabled: boolean,
) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: [...searchQueryKeys.results(scope, filters), kind, firstCursor],
      queryFn: ({ pageParam, signal }) => fetchSearch(scope, { ...filters, kind }, { cursor: pageParam, signal }),
      initialPageParam: firstCursor,
      getNextPageParam: (last) => last.groups.find((g) => g.kind === kind)?.next_cursor ?? null,
      enabled: enabled && firstCursor !== null,
      staleTime: 30_000,
    }),
  );
}
