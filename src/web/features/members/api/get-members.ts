import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { type MemberFilters, memberQueryKeys } from "./member-keys";

export type MembersPage =
  paths["/api/communities/{communityId}/members"]["get"]["responses"][200]["content"]["application/json"];
export type MemberRow = MembersPage["items"][number];
export type { MemberFilters };

export const MEMBERS_PAGE_SIZE = 25;

export const fetchMembersPage = (communityId: string, filters: MemberFilters, cursor: string | null) =>
  unwrap(
    api.GET("/api/communities/{communityId}/members", {
      params: {
        path: { communityId },
        query: {
          limit: MEMBERS_PAGE_SIZE,
          ...(filters.q.trim() ? { q: filters.q.trim() } : {}),
          ...(filters.role ? { role: filters.role } : {}),
          ...(cursor ? { cursor } : {}),
        },
      },
    }),
  );

export const membersQueryOptions = (communityId: string, filters: MemberFilters) =>
  infiniteQueryOptions({
    queryKey: memberQueryKeys.list(communityId, filters),
    queryFn: ({ pageParam }) => fetchMembersPage(communityId, filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    // Typing in the search box keeps the last answer on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });

export function useMembers(communityId: string, filters: MemberFilters) {
  return useInfiniteQuery(membersQueryOptions(communityId, filters));
}
