import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { useCommunityCache } from "./community-cache";

export const regenerateInvite = (communityId: string) =>
  unwrap(api.POST("/api/communities/{communityId}/invite/regenerate", { params: { path: { communityId } } }));

/** A fresh invite code; the old link stops working at once. */
export function useRegenerateInvite(communityId: string) {
  const cache = useCommunityCache();
  return useMutation({
    mutationFn: () => regenerateInvite(communityId),
    onSuccess: ({ invite_code }) => {
      cache.patch(communityId, (c) => ({ ...c, invite_code }));
      cache.invalidate();
    },
  });
}
