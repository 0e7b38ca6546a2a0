import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "#web/features/communities";
import { insertPost, invalidateFeeds } from "./post-keys";

export type NewPost = NonNullable<
  paths["/api/communities/{communityId}/posts"]["post"]["requestBody"]
>["content"]["application/json"];
export type PostVisibility = NonNullable<NewPost["visibility"]>;

export const createPost = (communityId: string, body: NewPost) =>
  unwrap(api.POST("/api/communities/{communityId}/posts", { params: { path: { communityId } }, body }));

export function useCreatePost(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewPost) => createPost(communityId, body),
    onSuccess: (post) => {
      insertPost(queryClient, post);
      void invalidateFeeds(queryClient);
      // post_count, the first-post onboarding task and (for a non-member) the new membership.
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.details() });
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.stats(communityId) });
    },
  });
}
