import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { useMe } from "#web/lib/session";
import { communityQueryKeys } from "./get-community";

export type MyCommunities = paths["/api/me/communities"]["get"]["responses"][200]["content"]["application/json"];
export type MyCommunity = MyCommunities["items"][number];

export const fetchMyCommunities = (signal?: AbortSignal) => unwrap(api.GET("/api/me/communities", { signal }));

/**
 * Kept fresh by the notification stream (a `memberships` event on join, leave, removal, role change
 * or deletion; unread counts on every notification event) and by this tab's own join and leave,
 * which invalidate every community key: it is not refetched on a timer.
 */
export const myCommunitiesQueryOptions = () =>
  queryOptions({
    queryKey: communityQueryKeys.mine(),
    queryFn: ({ signal }) => fetchMyCommunities(signal),
    staleTime: 5 * 60_000,
  });

/** The signed-in person's communities; nothing is asked while signed out. */
export function useMyCommunities() {
  const me = useMe();
  return useQuery({ ...myCommunitiesQueryOptions(), enabled: Boolean(me.data?.user) });
}

export const invalidateMyCommunities = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: communityQueryKeys.mine() });

/** Whether `idOrSlug` (a /community/:communityId parameter) names this community. */
export function isCommunity(c: Pick<MyCommunity, "id" | "slug" | "custom_slug">, idOrSlug: string | undefined) {
  if (!idOrSlug) return false;
  const key = idOrSlug.toLowerCase();
  return c.id.toLowerCase() === key || c.slug.toLowerCase() === key || c.custom_slug?.toLowerCase() === key;
}
