import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { Comment } from "./get-comments";
import { commentQueryKeys } from "./comment-keys";

export const toggleCommentLike = (commentId: string) =>
  unwrap(api.POST("/api/comments/{commentId}/like", { params: { path: { commentId } } }));

/** Like or unlike a comment: the heart turns at once, the server's count settles it. */
export function useToggleCommentLike(postId: string) {
  const queryClient = useQueryClient();
  const key = commentQueryKeys.list(postId);
  const patch = (commentId: string, change: (c: Comment) => Partial<Comment>) =>
    queryClient.setQueryData<Comment[]>(key, (list) =>
      list?.map((c) => (c.id === commentId ? { ...c, ...change(c) } : c)),
    );
  return useMutation({
    mutationFn: (commentId: string) => toggleCommentLike(commentId),
    onMutate: async (commentId) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Comment[]>(key)?.find((c) => c.id === commentId);
      patch(commentId, (c) => ({ liked: !c.liked, likes_count: Math.max(0, c.likes_count + (c.liked ? -1 : 1)) }));
      return { before };
    },
    onError: (_error, commentId, context) => {
      if (context?.before)
        patch(commentId, () => ({ liked: context.before!.liked, likes_count: context.before!.likes_count }));
    },
    onSuccess: (result, commentId) => patch(commentId, () => result),
  });
}
