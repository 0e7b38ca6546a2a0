import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "#web/features/communities";

type Operation = paths["/api/communities/{communityId}/leaderboard"]["get"];
export type Leaderboard = Operation["responses"][200]["content"]["application/json"];
export type LeaderboardEntry = Leaderboard["items"][number];
export type LeaderboardPeriod = NonNullable<NonNullable<Operation["parameters"]["query"]>["period"]>;

export const LEADERBOARD_SIZE = 10;

export const fetchLeaderboard = (communityId: string, period: LeaderboardPeriod) =>
  unwrap(
    api.GET("/api/communities/{communityId}/leaderboard", {
      params: { path: { communityId }, query: { period, limit: LEADERBOARD_SIZE } },
    }),
  );

/** Members ranked by likes received on their posts and comments in the period, with the viewer's own rank. */
export const leaderboardQueryOptions = (communityId: string, period: LeaderboardPeriod) =>
  queryOptions({
    queryKey: communityQueryKeys.part(communityId, "leaderboard", period),
    queryFn: () => fetchLeaderboard(communityId, period),
    // Switching periods keeps the last list on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });

export function useLeaderboard(communityId: string, period: LeaderboardPeriod) {
  return useQuery(leaderboardQueryOptions(communityId, period));
}
