import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { postQueryKeys } from "./post-keys";

export { invalidateFeeds, type FeedPage, type FeedPost } from "./post-keys";

export const fetchFeedPage = (communityId: string, category: string | null, cursor: string | null) =>
  unwrap(
    api.GET("/api/communities/{communityId}/posts", {
      params: {
        path: { communityId },
        query: { ...(category ? { category } : {}), ...(cursor ? { cursor } : {}) },
      },
    }),
  );

/** The feed of one community, optionally one category, a page at a time (pinned first, then newest). */
export const feedQueryOptions = (communityId: string, category: string | null) =>
  infiniteQueryOptions({
    queryKey: postQueryKeys.feed(communityId, category),
    queryFn: ({ pageParam }) => fetchFeedPage(communityId, category, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

export function useFeed(communityId: string, category: string | null) {
  return useInfiniteQuery(feedQueryOptions(communityId, category));
}
