import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CommunityRole } from "#shared/roles";
import { type CommunityView, communityQueryKeys, communityQueryOptions } from "#web/features/communities";

/** A post category as the composer, the card and the edit dialog use it. */
export type PostCategory = { id: string; name: string; emoji: string };

/** The community as already loaded by the page around the post, under its id or its slug. */
function cachedCommunity(queryClient: QueryClient, communityId: string) {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: communityQueryKeys.details() })) {
    const data = query.state.data as CommunityView | undefined;
    if (data?.id === communityId) return { data, updatedAt: query.state.dataUpdatedAt };
  }
  return undefined;
}

/**
 * What a post card needs from its community: the viewer's role (for the post menu) and the post
 * categories (for the edit dialog). The page passes them when it has them; anything missing is
 * read from the community page's cached answer, fetched by id only when nothing is cached.
 */
export function usePostContext(
  communityId: string,
  known: { role?: CommunityRole | null; categories?: readonly PostCategory[] },
): { role: CommunityRole | null; categories: readonly PostCategory[] } {
  const queryClient = useQueryClient();
  const missing = known.role === undefined || known.categories === undefined;
  const query = useQuery({
    ...communityQueryOptions(communityId),
    enabled: missing,
    initialData: () => cachedCommunity(queryClient, communityId)?.data,
    initialDataUpdatedAt: () => cachedCommunity(queryClient, communityId)?.updatedAt,
  });
  return {
    role: known.role !== undefined ? known.role : (query.data?.viewer.role ?? null),
    categories: known.categories ?? query.data?.post_categories ?? [],
  };
}
