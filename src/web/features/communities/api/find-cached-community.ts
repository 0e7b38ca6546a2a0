import type { QueryClient } from "@tanstack/react-query";
import { type CommunityView, communityQueryKeys } from "./get-community";

/**
 * The community as already cached by a page, whichever key (id or slug) it was asked for under:
 * the slug-keyed details are the only community keys that do not hold its id.
 */
export function findCachedCommunity(queryClient: QueryClient, communityId: string) {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: communityQueryKeys.details() })) {
    const data = query.state.data as CommunityView | undefined;
    if (data?.id === communityId) return { data, updatedAt: query.state.dataUpdatedAt };
  }
  return undefined;
}
