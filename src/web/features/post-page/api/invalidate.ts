import type { QueryClient } from "@tanstack/react-query";
import { invalidateFeeds } from "../../posts";
import { postPageKeys } from "./keys";

/** After a comment is written or removed: the thread, the post's comments_count here and in every feed. */
export function invalidateThread(queryClient: QueryClient, postId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: postPageKeys.post(postId) }),
    invalidateFeeds(queryClient),
  ]);
}
