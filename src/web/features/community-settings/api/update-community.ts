import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { useCommunityCache } from "./community-cache";

export type CommunityChanges = NonNullable<
  paths["/api/communities/{communityId}"]["patch"]["requestBody"]
>["content"]["application/json"];

export const updateCommunity = (communityId: string, changes: CommunityChanges) =>
  unwrap(api.PATCH("/api/communities/{communityId}", { params: { path: { communityId } }, body: changes }));

/** Saves some of the settings; every view of the community shows the answer at once. */
export function useUpdateCommunity(communityId: string) {
  const cache = useCommunityCache();
  return useMutation({
    mutationFn: (changes: CommunityChanges) => updateCommunity(communityId, changes),
    onSuccess: (saved) => {
      cache.replace(saved);
      cache.invalidate();
    },
  });
}
