import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { memberQueryKeys } from "./member-keys";

export type BanRow =
  paths["/api/communities/{communityId}/bans"]["get"]["responses"][200]["content"]["application/json"][number];

export const fetchBans = (communityId: string) =>
  unwrap(api.GET("/api/communities/{communityId}/bans", { params: { path: { communityId } } }));

export const bansQueryOptions = (communityId: string) =>
  queryOptions({ queryKey: memberQueryKeys.bans(communityId), queryFn: () => fetchBans(communityId) });

export function useBans(communityId: string) {
  return useQuery(bansQueryOptions(communityId));
}
