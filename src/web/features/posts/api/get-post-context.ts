import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CommunityRole } from "../../../../shared/roles";
import { type CommunityView, communityQueryKeys, communityQueryOptions } from "../../communities";

/** The community as already loaded by the page around the feed, under its id or its slug. */
function cachedCommunity(queryClient: QueryClient, communityId: string) {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: communityQueryKeys.details() })) {
    const data = query.state.data as CommunityView | undefined;
    if (data?.id === communityId) return { data, updatedAt: query.state.dataUpdatedAt };
  }
  return undefined;
}

/**
 * The viewer's role in a community, for the post menu: the one given by the page when it has it,
 * else read from the community page's cached answer (fetched by id only when nothing is cached).
 */
export function useViewerRole(communityId: string, known?: CommunityRole | null): CommunityRole | null {
  const queryClient = useQueryClient();
  const query = useQuery({
    ...communityQueryOptions(communityId),
    enabled: known === undefined,
    initialData: () => cachedCommunity(queryClient, communityId)?.data,
    initialDataUpdatedAt: () => cachedCommunity(queryClient, communityId)?.updatedAt,
  });
  if (known !== undefined) return known;
  return query.data?.viewer.role ?? null;
}
