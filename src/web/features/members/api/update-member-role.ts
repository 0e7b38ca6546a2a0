import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { CommunityRole } from "#shared/roles";
import { communityQueryKeys } from "#web/features/communities";
import { memberQueryKeys } from "./member-keys";

export const updateMemberRole = (communityId: string, userId: string, role: CommunityRole) =>
  unwrap(
    api.PATCH("/api/communities/{communityId}/members/{userId}", {
      params: { path: { communityId, userId } },
      body: { role },
    }),
  );

export function useUpdateMemberRole(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: CommunityRole }) =>
      updateMemberRole(communityId, userId, role),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: memberQueryKeys.lists(communityId) });
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.stats(communityId) });
      // The admin figure counts owners and admins.
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.details() });
    },
  });
}
