import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { Comment } from "./get-comments";
import { invalidateThread } from "./invalidate";
import { commentQueryKeys } from "./comment-keys";

export type NewComment = { content: string; parent_id?: string | null };

export const createComment = (postId: string, body: NewComment) =>
  unwrap(api.POST("/api/posts/{postId}/comments", { params: { path: { postId } }, body }));

/** Comment on a post or reply to a top-level comment; the new comment joins the thread at once. */
export function useCreateComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewComment) => createComment(postId, body),
    onSuccess: (created) => {
      queryClient.setQueryData<Comment[]>(commentQueryKeys.list(postId), (list) =>
        list && !list.some((c) => c.id === created.id) ? [...list, created] : list,
      );
      void queryClient.invalidateQueries({ queryKey: commentQueryKeys.list(postId) });
      void invalidateThread(queryClient, postId);
    },
  });
}
