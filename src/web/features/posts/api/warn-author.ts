import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";

export const warnAuthor = (postId: string, reason: string) =>
  unwrap(api.POST("/api/posts/{postId}/warn", { params: { path: { postId } }, body: { reason } }));

/** A moderator's warning to the post's author (the author is notified). */
export function useWarnAuthor(postId: string) {
  return useMutation({ mutationFn: (reason: string) => warnAuthor(postId, reason) });
}
