import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { communityQueryKeys } from "#web/features/communities";
import { invalidateFeeds } from "./post-keys";
import { type PendingPost, pendingPostsQueryKey } from "./get-pending-posts";

export const reviewPost = (postId: string, approve: boolean) =>
  unwrap(api.POST("/api/posts/{postId}/review", { params: { path: { postId } }, body: { approve } }));

/**
 * Approve (the post joins the feed) or reject (it is removed) a pending post. It leaves the list
 * at once; the list, the pending figure, the feed and post_count are then fetched again.
 */
export function useReviewPost(communityId: string) {
  const queryClient = useQueryClient();
  const pendingKey = pendingPostsQueryKey(communityId);
  return useMutation({
    mutationFn: ({ postId, approve }: { postId: string; approve: boolean }) => reviewPost(postId, approve),
    onSuccess: (_result, { postId }) => {
      queryClient.setQueryData<PendingPost[]>(pendingKey, (list) => list?.filter((p) => p.id !== postId));
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: pendingKey });
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.stats(communityId) });
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.details() });
      void invalidateFeeds(queryClient);
    },
  });
}
