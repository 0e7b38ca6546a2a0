import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "#web/features/communities";

export type CommunityStats =
  paths["/api/communities/{communityId}/stats"]["get"]["responses"][200]["content"]["application/json"];

export const fetchCommunityStats = (communityId: string) =>
  unwrap(api.GET("/api/communities/{communityId}/stats", { params: { path: { communityId } } }));

export const communityStatsQueryOptions = (communityId: string) =>
  queryOptions({
    queryKey: communityQueryKeys.part(communityId, "stats"),
    queryFn: () => fetchCommunityStats(communityId),
  });

export function useCommunityStats(communityId: string) {
  return useQuery(communityStatsQueryOptions(communityId));
}
