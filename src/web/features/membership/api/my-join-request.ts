import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "#web/features/communities";
import { membershipQueryKeys } from "./membership-keys";

type MinePath = paths["/api/communities/{communityId}/join-requests/mine"];
export type JoinRequestForm = MinePath["get"]["responses"][200]["content"]["application/json"];
type ApplyPath = paths["/api/communities/{communityId}/join-requests"]["post"];
export type ApplyBody = NonNullable<ApplyPath["requestBody"]>["content"]["application/json"];
export type ApplyResult = ApplyPath["responses"][201]["content"]["application/json"];

export const fetchJoinRequestForm = (idOrSlug: string) =>
  unwrap(api.GET("/api/communities/{communityId}/join-requests/mine", { params: { path: { communityId: idOrSlug } } }));

export const joinRequestFormQueryOptions = (idOrSlug: string) =>
  queryOptions({
    queryKey: membershipQueryKeys.mine(idOrSlug),
    queryFn: () => fetchJoinRequestForm(idOrSlug),
    retry: false,
  });

/** The questions and the viewer's latest request (a private community's gate has no community view). */
export function useJoinRequestForm(idOrSlug: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...joinRequestFormQueryOptions(idOrSlug), enabled });
}

function useRefreshAfterRequest() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: membershipQueryKeys.minePrefix() });
    void queryClient.invalidateQueries({ queryKey: communityQueryKeys.details() });
    void queryClient.invalidateQueries({ queryKey: communityQueryKeys.mine() });
  };
}

export const applyToJoin = (communityId: string, body: ApplyBody) =>
  unwrap(api.POST("/api/communities/{communityId}/join-requests", { params: { path: { communityId } }, body }));

/** Ask to join with the answers; the landing and the gate show the request's state. */
export function useApplyToJoin(communityId: string) {
  const refresh = useRefreshAfterRequest();
  return useMutation({ mutationFn: (body: ApplyBody) => applyToJoin(communityId, body), onSuccess: refresh });
}

export const withdrawJoinRequest = (communityId: string) =>
  unwrap(api.DELETE("/api/communities/{communityId}/join-requests/mine", { params: { path: { communityId } } }));

export function useWithdrawJoinRequest(communityId: string) {
  const refresh = useRefreshAfterRequest();
  return useMutation({ mutationFn: () => withdrawJoinRequest(communityId), onSuccess: refresh });
}
