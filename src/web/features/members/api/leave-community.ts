import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { invalidateCommunity } from "#web/features/communities";

export const leaveCommunity = (communityId: string) =>
  unwrap(api.POST("/api/communities/{communityId}/leave", { params: { path: { communityId } } }));

export function useLeaveCommunity(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => leaveCommunity(communityId),
    onSuccess: () => invalidateCommunity(queryClient),
  });
}
