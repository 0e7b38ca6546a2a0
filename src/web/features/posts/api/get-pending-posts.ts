import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "#web/features/communities";

export type PendingPost =
  paths["/api/communities/{communityId}/posts/pending"]["get"]["responses"][200]["content"]["application/json"][number];

export const fetchPendingPosts = (communityId: string) =>
  unwrap(api.GET("/api/communities/{communityId}/posts/pending", { params: { path: { communityId } } }));

/** The key of a community's posts waiting for approval (under its keys, by id). */
export const pendingPostsQueryKey = (communityId: string) => communityQueryKeys.part(communityId, "pending-posts");

/** Posts waiting for approval, oldest first (owner, admin, moderator). */
export const pendingPostsQueryOptions = (communityId: string) =>
  queryOptions({
    queryKey: pendingPostsQueryKey(communityId),
    queryFn: () => fetchPendingPosts(communityId),
  });

export function usePendingPosts(communityId: string, enabled = true) {
  return useQuery({ ...pendingPostsQueryOptions(communityId), enabled });
}
