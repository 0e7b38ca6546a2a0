import { useQueryClient } from "@tanstack/react-query";
import { findCachedCommunity } from "#web/features/communities";

/**
 * The community's level names as its page already read them (the community view), for a badge's
 * accessible name; null (the default names) when the view is not cached.
 */
export function useLevelNames(communityId: string | null | undefined): readonly string[] | null {
  const queryClient = useQueryClient();
  if (!communityId) return null;
  return findCachedCommunity(queryClient, communityId)?.data.level_names ?? null;
}
