import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { invalidateCommunity } from "#web/features/communities";

export const removeMember = (communityId: string, userId: string) =>
  unwrap(api.DELETE("/api/communities/{communityId}/members/{userId}", { params: { path: { communityId, userId } } }));

/** Removes a member ranked below the viewer; they may join again. */
export function useRemoveMember(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeMember(communityId, userId),
    onSuccess: () => invalidateCommunity(queryClient),
  });
}
