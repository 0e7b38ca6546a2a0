import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, ApiError, unwrap } from "#web/lib/api";
import { invalidateFeeds, patchPost, postQueryKeys } from "./post-keys";

export const votePoll = (postId: string, optionIndex: number) =>
  unwrap(api.POST("/api/posts/{postId}/vote", { params: { path: { postId } }, body: { option_index: optionIndex } }));

/** One vote; the answer is the post with the results, which replaces the cached one. */
export function useVotePoll(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (optionIndex: number) => votePoll(postId, optionIndex),
    onSuccess: (post) => patchPost(queryClient, postId, () => post),
    onError: (error) => {
      // Already voted (another tab) or ended meanwhile: fetch the post as it is now.
      if (error instanceof ApiError && error.status === 409) {
        void invalidateFeeds(queryClient);
        void queryClient.invalidateQueries({ queryKey: postQueryKeys.detail(postId) });
      }
    },
  });
}
