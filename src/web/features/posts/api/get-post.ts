import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, ApiError, unwrap } from "#web/lib/api";
import { type PostView, postQueryKeys } from "./post-keys";

export type SinglePost = PostView;

export const fetchPost = (postId: string) => unwrap(api.GET("/api/posts/{postId}", { params: { path: { postId } } }));

/** One post with its community and the viewer's role there (404 for anything the viewer may not see). */
export const postQueryOptions = (postId: string) =>
  queryOptions({
    queryKey: postQueryKeys.detail(postId),
    queryFn: () => fetchPost(postId),
    // Not found is an answer, not a failure to retry.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

export function usePost(postId: string) {
  return useQuery(postQueryOptions(postId));
}
