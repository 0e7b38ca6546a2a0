import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { communityQueryKeys } from "#web/features/communities";

export const acceptInvite = (inviteCode: string) =>
  unwrap(api.POST("/api/invites/{inviteCode}/accept", { params: { path: { inviteCode } } }));

/** Joins through an invite; the community's page and the directory's member counts are refreshed. */
export function useAcceptInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvite,
    onSuccess: ({ community }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: communityQueryKeys.detail(community.slug) }),
        queryClient.invalidateQueries({ queryKey: communityQueryKeys.detail(community.id) }),
        queryClient.invalidateQueries({ queryKey: communityQueryKeys.directories() }),
      ]),
  });
}
