import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { Comment } from "./get-comments";
import { commentQueryKeys } from "./comment-keys";

export const updateComment = (commentId: string, content: string) =>
  unwrap(api.PATCH("/api/comments/{commentId}", { params: { path: { commentId } }, body: { content } }));

/** Edit your own comment. */
export function useUpdateComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId, content }: { commentId: string; content: string }) => updateComment(commentId, content),
    onSuccess: (updated) => {
      queryClient.setQueryData<Comment[]>(commentQueryKeys.list(postId), (list) =>
        list?.map((c) => (c.id === updated.id ? { ...c, content: updated.content, is_edited: updated.is_edited } : c)),
      );
    },
  });
}
