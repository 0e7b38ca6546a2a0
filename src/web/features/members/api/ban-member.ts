import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { invalidateCommunity } from "#web/features/communities";

export const banMember = (communityId: string, userId: string, reason: string) =>
  unwrap(
    api.POST("/api/communities/{communityId}/bans", {
      params: { path: { communityId } },
      body: { user_id: userId, ...(reason.trim() ? { reason: reason.trim() } : {}) },
    }),
  );

/** Removes a member ranked below the viewer and keeps them out. */
export function useBanMember(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, reason }: { userId: string; reason: string }) => banMember(communityId, userId, reason),
    onSuccess: () => invalidateCommunity(queryClient),
  });
}
