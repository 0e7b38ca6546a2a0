import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { invalidateThread } from "./invalidate";
import { commentQueryKeys } from "./comment-keys";

export const deleteComment = (commentId: string) =>
  unwrap(api.DELETE("/api/comments/{commentId}", { params: { path: { commentId } } }));

/** Delete a comment (your own; any for owner, admin, moderator). The server decides whether a placeholder stays. */
export function useDeleteComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) => deleteComment(commentId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: commentQueryKeys.list(postId) });
      void invalidateThread(queryClient, postId);
    },
  });
}
