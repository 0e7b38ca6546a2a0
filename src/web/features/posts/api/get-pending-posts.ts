import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { postQueryKeys } from "./post-keys";

export type PendingPost =
  paths["/api/communities/{communityId}/posts/pending"]["get"]["responses"][200]["content"]["application/json"][number];

export const fetchPendingPosts = (communityId: string) =>
  unwrap(api.GET("/api/communities/{communityId}/posts/pending", { params: { path: { communityId } } }));

/** Posts waiting for approval, oldest first (owner, admin, moderator). */
export const pendingPostsQueryOptions = (communityId: string) =>
  queryOptions({
    queryKey: postQueryKeys.pending(communityId),
    queryFn: () => fetchPendingPosts(communityId),
  });

export function usePendingPosts(communityId: string, enabled = true) {
  return useQuery({ ...pendingPostsQueryOptions(communityId), enabled });
}
