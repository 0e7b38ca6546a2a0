import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { invalidateCommunity } from "#web/features/communities";

export const joinCommunity = (communityId: string) =>
  unwrap(api.POST("/api/communities/{communityId}/join", { params: { path: { communityId } } }));

export function useJoinCommunity(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => joinCommunity(communityId),
    onSuccess: () => invalidateCommunity(queryClient),
  });
}
