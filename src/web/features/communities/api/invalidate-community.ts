import type { QueryClient } from "@tanstack/react-query";
import { communityQueryKeys } from "./get-community";

/**
 * After a membership change: every view of the community (detail under its id and its slug, the
 * directory's member counts) and everything keyed by it (members, feed visibility, stats, bans).
 */
export function invalidateCommunity(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: communityQueryKeys.all });
}
