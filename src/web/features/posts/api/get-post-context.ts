import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { CommunityRole } from "#shared/roles";
import { communityQueryOptions, findCachedCommunity } from "#web/features/communities";

/** A post category as the composer, the card and the edit dialog use it. */
export type PostCategory = { id: string; name: string; emoji: string };

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
    initialData: () => findCachedCommunity(queryClient, communityId)?.data,
    initialDataUpdatedAt: () => findCachedCommunity(queryClient, communityId)?.updatedAt,
  });
  return {
    role: known.role !== undefined ? known.role : (query.data?.viewer.role ?? null),
    categories: known.categories ?? query.data?.post_categories ?? [],
  };
}
