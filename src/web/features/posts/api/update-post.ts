import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { invalidateFeeds, patchPost } from "./post-keys";

export type PostChanges = NonNullable<
  paths["/api/posts/{postId}"]["patch"]["requestBody"]
>["content"]["application/json"];

export const updatePost = (postId: string, body: PostChanges) =>
  unwrap(api.PATCH("/api/posts/{postId}", { params: { path: { postId } }, body }));

/** The author edits content and category; a new category may move the post between filtered feeds. */
export function useUpdatePost(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PostChanges) => updatePost(postId, body),
    onSuccess: (post) => {
      patchPost(queryClient, postId, () => post);
      void invalidateFeeds(queryClient);
    },
  });
}
