import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "./get-community";

export type CommunityStats =
  paths["/api/communities/{communityId}/stats"]["get"]["responses"][200]["content"]["application/json"];

export const fetchCommunityStats = (communityId: string) =>
  unwrap(api.GET("/api/communities/{communityId}/stats", { params: { path: { communityId } } }));

export const communityStatsQueryOptions = (communityId: string) =>
  queryOptions({
    queryKey: communityQueryKeys.stats(communityId),
    queryFn: () => fetchCommunityStats(communityId),
  });

/** Dashboard and metrics figures (owner, admin). */
export function useCommunityStats(communityId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...communityStatsQueryOptions(communityId), enabled });
}
