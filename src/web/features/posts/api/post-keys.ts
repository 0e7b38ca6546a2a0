import type { InfiniteData, QueryClient, QueryKey } from "@tanstack/react-query";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "#web/features/communities";

export type FeedPage =
  paths["/api/communities/{communityId}/posts"]["get"]["responses"][200]["content"]["application/json"];
export type FeedPost = FeedPage["items"][number];
export type PostView = paths["/api/posts/{postId}"]["get"]["responses"][200]["content"]["application/json"];

const FEED = "posts";

/**
 * Every posts query key is built here, and only here is a key taken apart. Feeds live under their
 * community's keys, by its id (so a change to the community reaches them); one post (the share
 * link target) has its own. The pending list's key is get-pending-posts.ts's (it is the admin's).
 */
export const postQueryKeys = {
  feed: (communityId: string, category: string | null) => communityQueryKeys.part(communityId, FEED, category ?? "all"),
  /** The community and category ("all" or a category id) of a feed's key; null for any other key. */
  feedOf: (queryKey: QueryKey): { communityId: string; category: unknown } | null => {
    const part = communityQueryKeys.partOf(queryKey);
    return part?.part === FEED ? { communityId: part.communityId, category: part.rest[0] } : null;
  },
  /** Whether the key is a feed's, of any community. */
  isFeed: (queryKey: QueryKey) => postQueryKeys.feedOf(queryKey) !== null,
  /** Whether the key is one of this community's feeds. */
  isFeedOf: (queryKey: QueryKey, communityId: string) => postQueryKeys.feedOf(queryKey)?.communityId === communityId,
  detail: (postId: string) => ["posts", "detail", postId] as const,
  /** The mutation keys of the toggles, so a late answer does not overwrite a newer click. */
  like: (postId: string) => ["posts", "like", postId] as const,
  save: (postId: string) => ["posts", "save", postId] as const,
};

type Feed = InfiniteData<FeedPage, string | null>;

/** Applies `update` to the post wherever it is cached: every feed page and its detail query. */
export function patchPost(queryClient: QueryClient, postId: string, update: (post: FeedPost) => FeedPost) {
  queryClient.setQueriesData<Feed>({ predicate: (q) => postQueryKeys.isFeed(q.queryKey) }, (feed) => {
    if (!feed) return feed;
    let changed = false;
    const pages = feed.pages.map((page) => {
      if (!page.items.some((p) => p.id === postId)) return page;
      changed = true;
      return { ...page, items: page.items.map((p) => (p.id === postId ? update(p) : p)) };
    });
    return changed ? { ...feed, pages } : feed;
  });
  queryClient.setQueryData<PostView>(postQueryKeys.detail(postId), (view) =>
    view ? { ...view, post: update(view.post) } : view,
  );
}

/** Takes the post out of every cached feed (deleted). */
export function removePost(queryClient: QueryClient, postId: string) {
  queryClient.setQueriesData<Feed>({ predicate: (q) => postQueryKeys.isFeed(q.queryKey) }, (feed) =>
    feed
      ? { ...feed, pages: feed.pages.map((page) => ({ ...page, items: page.items.filter((p) => p.id !== postId) })) }
      : feed,
  );
}

/**
 * Puts a new post at the top of its community's cached feeds ("all" and its category), after the
 * pinned ones, so it shows at once; the refetch that follows confirms the order.
 */
export function insertPost(queryClient: QueryClient, post: FeedPost) {
  for (const query of queryClient.getQueryCache().findAll({ predicate: (q) => postQueryKeys.isFeed(q.queryKey) })) {
    const key = postQueryKeys.feedOf(query.queryKey);
    const feed = query.state.data as Feed | undefined;
    if (!key || !feed?.pages.length) continue;
    const first = feed.pages[0];
    if (key.communityId !== post.community_id || (key.category !== "all" && key.category !== post.category_id))
      continue;
    if (first.items.some((p) => p.id === post.id)) continue;
    const pinned = first.items.filter((p) => p.is_pinned).length;
    const items = [...first.items.slice(0, pinned), post, ...first.items.slice(pinned)];
    queryClient.setQueryData<Feed>(query.queryKey, { ...feed, pages: [{ ...first, items }, ...feed.pages.slice(1)] });
  }
}

/** Marks every feed stale and refetches the ones on screen. */
export function invalidateFeeds(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ predicate: (q) => postQueryKeys.isFeed(q.queryKey) });
}
