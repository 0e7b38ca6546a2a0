import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { type FeedPost, patchPost, postQueryKeys } from "./post-keys";

export const toggleLike = (postId: string) =>
  unwrap(api.POST("/api/posts/{postId}/like", { params: { path: { postId } } }));

const flip = (post: FeedPost): FeedPost => ({
  ...post,
  liked: !post.liked,
  likes_count: Math.max(0, post.likes_count + (post.liked ? -1 : 1)),
});

/**
 * Like or unlike at once (optimistic); a failed call flips it back. Each click flips the cached
 * post, so several quick clicks stay in step; only the last answer writes the server's count.
 */
export function useToggleLike(postId: string) {
  const queryClient = useQueryClient();
  const mutationKey = postQueryKeys.like(postId);
  return useMutation({
    mutationKey,
    mutationFn: () => toggleLike(postId),
    onMutate: () => patchPost(queryClient, postId, flip),
    onError: () => patchPost(queryClient, postId, flip),
    onSuccess: (result) => {
      if (queryClient.isMutating({ mutationKey }) > 1) return;
      patchPost(queryClient, postId, (p) => ({ ...p, liked: result.liked, likes_count: result.likes_count }));
    },
  });
}
