import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { invalidateFeeds, patchPost } from "./post-keys";

export const pinPost = (postId: string, pinned: boolean) =>
  unwrap(api.POST("/api/posts/{postId}/pin", { params: { path: { postId } }, body: { pinned } }));

/** Pin or unpin (owner, admin, moderator); the feed order changes, so feeds are fetched again. */
export function usePinPost(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pinned: boolean) => pinPost(postId, pinned),
    onSuccess: (post) => {
      patchPost(queryClient, postId, () => post);
      void invalidateFeeds(queryClient);
    },
  });
}
