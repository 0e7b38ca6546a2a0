import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "#web/features/communities";

export type InviteView = paths["/api/invites/{inviteCode}"]["get"]["responses"][200]["content"]["application/json"];

export const fetchInvite = (inviteCode: string) =>
  unwrap(api.GET("/api/invites/{inviteCode}", { params: { path: { inviteCode } } }));

export const inviteQueryOptions = (inviteCode: string) =>
  queryOptions({
    queryKey: communityQueryKeys.invite(inviteCode),
    queryFn: () => fetchInvite(inviteCode),
    // Whether the viewer is already a member changes with sign-in and joining: always ask again.
    staleTime: 0,
  });

export function useInvite(inviteCode: string) {
  return useQuery(inviteQueryOptions(inviteCode));
}
