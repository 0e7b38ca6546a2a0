import type { QueryClient } from "@tanstack/react-query";
import { invalidateFeeds, postQueryKeys } from "#web/features/posts";

/** After a comment is written or removed: the thread, the post's comments_count here and in every feed. */
export function invalidateThread(queryClient: QueryClient, postId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: postQueryKeys.detail(postId) }),
    invalidateFeeds(queryClient),
  ]);
}
