import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "#web/features/communities";
import { membershipQueryKeys } from "./membership-keys";

type ListPath = paths["/api/communities/{communityId}/join-requests"]["get"];
export type JoinRequestsPage = ListPath["responses"][200]["content"]["application/json"];
export type JoinRequestItem = JoinRequestsPage["items"][number];
type DecidePath = paths["/api/communities/{communityId}/join-requests/decide"]["post"];
export type DecideBody = NonNullable<DecidePath["requestBody"]>["content"]["application/json"];
export type DecideResult = DecidePath["responses"][200]["content"]["application/json"];

export const fetchJoinRequests = (communityId: string, cursor?: string) =>
  unwrap(
    api.GET("/api/communities/{communityId}/join-requests", {
      params: { path: { communityId }, query: cursor ? { cursor } : {} },
    }),
  );

export const joinRequestsQueryOptions = (communityId: string) =>
  infiniteQueryOptions({
    queryKey: membershipQueryKeys.requests(communityId),
    queryFn: ({ pageParam }) => fetchJoinRequests(communityId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });

/** Pending requests, oldest first (owner, admin). */
export function useJoinRequests(communityId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useInfiniteQuery({ ...joinRequestsQueryOptions(communityId), enabled });
}

export const decideJoinRequests = (communityId: string, body: DecideBody) =>
  unwrap(api.POST("/api/communities/{communityId}/join-requests/decide", { params: { path: { communityId } }, body }));

/** Approve or decline; the queue, the member list and the counts follow. */
export function useDecideJoinRequests(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DecideBody) => decideJoinRequests(communityId, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: membershipQueryKeys.requests(communityId) });
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.part(communityId, "members") });
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.details() });
    },
  });
}
