import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { communityQueryKeys } from "#web/features/communities";
import { invalidateFeeds, postQueryKeys, removePost } from "./post-keys";

export const deletePost = (postId: string) =>
  unwrap(api.DELETE("/api/posts/{postId}", { params: { path: { postId } } }));

/** Deletes a post (the author's own; any for moderators and up): gone from every feed at once. */
export function useDeletePost(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deletePost(postId),
    onSuccess: () => {
      removePost(queryClient, postId);
      queryClient.removeQueries({ queryKey: postQueryKeys.detail(postId) });
      void invalidateFeeds(queryClient);
      // post_count on the community page.
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.details() });
    },
  });
}
