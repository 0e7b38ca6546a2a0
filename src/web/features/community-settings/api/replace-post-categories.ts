import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { useCommunityCache } from "./community-cache";

export type PostCategoryInput = NonNullable<
  paths["/api/communities/{communityId}/categories"]["put"]["requestBody"]
>["content"]["application/json"]["categories"][number];

export const replacePostCategories = (communityId: string, categories: PostCategoryInput[]) =>
  unwrap(
    api.PUT("/api/communities/{communityId}/categories", {
      params: { path: { communityId } },
      body: { categories },
    }),
  );

/** Replaces the post categories; the list order is the order members see. */
export function useReplacePostCategories(communityId: string) {
  const cache = useCommunityCache();
  return useMutation({
    mutationFn: (categories: PostCategoryInput[]) => replacePostCategories(communityId, categories),
    onSuccess: (saved) => {
      cache.patch(communityId, (c) => ({ ...c, post_categories: saved }));
      cache.invalidate();
    },
  });
}
