import type { QueryClient } from "@tanstack/react-query";
import { communityQueryKeys } from "#web/features/communities";

type NotificationLike = { id: string; type: string; community_id: string | null };

const seen = new Set<string>();

/**
 * A level-up notification arrived (live, from the notification stream): the viewer's level, their
 * badges, the leaderboard and what their level unlocks change in that community, so its view and
 * everything keyed by it are read again. Each notification acts once.
 */
export function applyLevelUps(queryClient: QueryClient, items: readonly NotificationLike[]) {
  const communities = new Set<string>();
  for (const n of items) {
    if (n.type !== "level_up" || !n.community_id || seen.has(n.id)) continue;
    seen.add(n.id);
    communities.add(n.community_id);
  }
  if (communities.size === 0) return Promise.resolve();
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: communityQueryKeys.details() }),
    queryClient.invalidateQueries({
      predicate: (q) => communities.has(communityQueryKeys.partOf(q.queryKey)?.communityId ?? ""),
    }),
  ]).then(() => undefined);
}
