import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LevelSettings, UpdateLevelSettingsInput } from "#shared/levels.schemas";
import { api, unwrap } from "#web/lib/api";
import { communityQueryKeys } from "#web/features/communities";
import { useCommunityCache } from "./community-cache";

export type { LevelSettings };

const levelSettingsKey = (communityId: string) => communityQueryKeys.part(communityId, "levels");

export const fetchLevelSettings = (communityId: string) =>
  unwrap(api.GET("/api/communities/{communityId}/levels", { params: { path: { communityId } } }));

/** Settings → Levels: the nine names and thresholds, the bonus points and the level posting needs. */
export const levelSettingsQueryOptions = (communityId: string) =>
  queryOptions({ queryKey: levelSettingsKey(communityId), queryFn: () => fetchLevelSettings(communityId) });

export function useLevelSettings(communityId: string) {
  return useQuery(levelSettingsQueryOptions(communityId));
}

export const updateLevelSettings = (communityId: string, changes: UpdateLevelSettingsInput) =>
  unwrap(api.PUT("/api/communities/{communityId}/levels", { params: { path: { communityId } }, body: changes }));

/**
 * Saves the level settings; the community view (names, thresholds, the viewer's level) and
 * everything showing levels in it (leaderboard, members, feed badges) are read again.
 */
export function useUpdateLevelSettings(communityId: string) {
  const queryClient = useQueryClient();
  const cache = useCommunityCache();
  return useMutation({
    mutationFn: (changes: UpdateLevelSettingsInput) => updateLevelSettings(communityId, changes),
    onSuccess: (saved) => {
      queryClient.setQueryData(levelSettingsKey(communityId), saved);
      cache.invalidate();
      void queryClient.invalidateQueries({
        predicate: (q) => {
          const part = communityQueryKeys.partOf(q.queryKey);
          return part?.communityId === communityId && part.part !== "levels";
        },
      });
    },
  });
}
