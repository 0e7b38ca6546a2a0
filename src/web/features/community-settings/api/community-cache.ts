import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { type CommunityView, communityQueryKeys } from "#web/features/communities";

/**
 * A community is cached once per way it was asked for (id, slug, custom slug): a change is written
 * into each of those entries that holds this community, then every detail and directory page is
 * refreshed from the server.
 */
export function communityCache(queryClient: QueryClient) {
  const patch = (communityId: string, change: (community: CommunityView) => CommunityView) =>
    queryClient.setQueriesData<CommunityView>({ queryKey: communityQueryKeys.details() }, (old) =>
      old && old.id === communityId ? change(old) : old,
    );
  return {
    patch,
    replace: (saved: CommunityView) => patch(saved.id, () => saved),
    invalidate: () => {
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.details() });
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.directories() });
    },
    /** After a deletion: nothing of the community stays cached. */
    forget: (communityId: string) => {
      queryClient.removeQueries({
        queryKey: communityQueryKeys.details(),
        predicate: (query) => (query.state.data as CommunityView | undefined)?.id === communityId,
      });
      queryClient.removeQueries({ queryKey: communityQueryKeys.stats(communityId) });
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.directories() });
    },
  };
}

export function useCommunityCache() {
  const queryClient = useQueryClient();
  return useMemo(() => communityCache(queryClient), [queryClient]);
}
