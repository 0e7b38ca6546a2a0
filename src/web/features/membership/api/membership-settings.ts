import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "#web/features/communities";
import { membershipQueryKeys } from "./membership-keys";

type Path = paths["/api/communities/{communityId}/membership"];
export type MembershipSettings = Path["get"]["responses"][200]["content"]["application/json"];
export type MembershipChanges = NonNullable<Path["patch"]["requestBody"]>["content"]["application/json"];

export const fetchMembershipSettings = (communityId: string) =>
  unwrap(api.GET("/api/communities/{communityId}/membership", { params: { path: { communityId } } }));

export const membershipSettingsQueryOptions = (communityId: string) =>
  queryOptions({
    queryKey: membershipQueryKeys.settings(communityId),
    queryFn: () => fetchMembershipSettings(communityId),
  });

/** Who may join and how (owner, admin). */
export function useMembershipSettings(communityId: string) {
  return useQuery(membershipSettingsQueryOptions(communityId));
}

export const updateMembershipSettings = (communityId: string, changes: MembershipChanges) =>
  unwrap(api.PATCH("/api/communities/{communityId}/membership", { params: { path: { communityId } }, body: changes }));

/** Saves the membership settings; the community page and the request queue follow. */
export function useUpdateMembershipSettings(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: MembershipChanges) => updateMembershipSettings(communityId, changes),
    onSuccess: (saved) => {
      queryClient.setQueryData(membershipQueryKeys.settings(communityId), saved);
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.details() });
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.directories() });
      void queryClient.invalidateQueries({ queryKey: membershipQueryKeys.requests(communityId) });
    },
  });
}
