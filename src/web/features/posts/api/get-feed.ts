import { infiniteQueryOptions, type QueryClient, useInfiniteQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api";
import type { paths } from "../../../lib/api-types";
import { communityQueryKeys } from "../../communities";

export type FeedPage =
  paths["/api/communities/{communityId}/posts"]["get"]["responses"][200]["content"]["application/json"];
export type FeedPost = FeedPage["items"][number];

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
    queryKey: communityQueryKeys.part(communityId, "posts", category ?? "all"),
    queryFn: ({ pageParam }) => fetchFeedPage(communityId, category, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

export function useFeed(communityId: string, category: string | null) {
  return useInfiniteQuery(feedQueryOptions(communityId, category));
}

/**
 * Every cached feed page of a community, whichever key (id or slug) it was loaded under: a post
 * written on the setup page must show when the community page opens.
 */
export function invalidateFeeds(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    predicate: ({ queryKey }) => queryKey[0] === "communities" && queryKey[1] === "part" && queryKey[3] === "posts",
  });
}
