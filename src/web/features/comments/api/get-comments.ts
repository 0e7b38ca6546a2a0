import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, ApiError, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { commentQueryKeys } from "./comment-keys";

export type Comment =
  paths["/api/posts/{postId}/comments"]["get"]["responses"][200]["content"]["application/json"][number];

export const fetchComments = (postId: string) =>
  unwrap(api.GET("/api/posts/{postId}/comments", { params: { path: { postId } } }));

/** A post's comments and replies, oldest first (deleted ones with replies as placeholders). */
export const commentsQueryOptions = (postId: string) =>
  queryOptions({
    queryKey: commentQueryKeys.list(postId),
    queryFn: () => fetchComments(postId),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

export function useComments(postId: string, enabled = true) {
  return useQuery({ ...commentsQueryOptions(postId), enabled });
}
