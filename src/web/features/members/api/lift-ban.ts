import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { memberQueryKeys } from "./member-keys";

export const liftBan = (communityId: string, userId: string) =>
  unwrap(api.DELETE("/api/communities/{communityId}/bans/{userId}", { params: { path: { communityId, userId } } }));

export function useLiftBan(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => liftBan(communityId, userId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberQueryKeys.bans(communityId) }),
  });
}
