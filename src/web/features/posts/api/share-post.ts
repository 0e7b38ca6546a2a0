import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { patchPost } from "./post-keys";

export const sharePost = (postId: string) =>
  unwrap(api.POST("/api/posts/{postId}/share", { params: { path: { postId } } }));

/** Counts a share once the link was handed to the share sheet or copied. */
export function useSharePost(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sharePost(postId),
    onSuccess: ({ share_count }) => patchPost(queryClient, postId, (p) => ({ ...p, share_count })),
  });
}
