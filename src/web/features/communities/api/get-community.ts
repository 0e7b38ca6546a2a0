import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, ApiError, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";

export type CommunityView =
  paths["/api/communities/{communityId}"]["get"]["responses"][200]["content"]["application/json"];

/** Every community query key is built here, so one invalidation reaches every view of a community. */
export const communityQueryKeys = {
  all: ["communities"] as const,
  directory: (filters: { category?: string; q?: string }) => ["communities", "directory", filters] as const,
  detail: (idOrSlug: string) => ["communities", "detail", idOrSlug.toLowerCase()] as const,
  /** Members, stats, categories, bans… of one community (keyed by id). */
  part: (communityId: string, part: string, ...rest: unknown[]) =>
    ["communities", "part", communityId, part, ...rest] as const,
  invite: (code: string) => ["communities", "invite", code] as const,
  /** The signed-in person's own communities (the header's switcher, "Your communities" on /). */
  mine: () => ["communities", "mine"] as const,
  /** Prefix of every community detail query (by id or by slug). */
  details: () => ["communities", "detail"] as const,
  /** Prefix of every directory page. */
  directories: () => ["communities", "directory"] as const,
  /** The owner's dashboard and metrics figures. */
  stats: (communityId: string) => ["communities", "part", communityId, "stats"] as const,
};

export const fetchCommunity = (idOrSlug: string) =>
  unwrap(api.GET("/api/communities/{communityId}", { params: { path: { communityId: idOrSlug } } }));

export const communityQueryOptions = (idOrSlug: string) =>
  queryOptions({
    queryKey: communityQueryKeys.detail(idOrSlug),
    queryFn: () => fetchCommunity(idOrSlug),
    // Not found and the private gate are answers, not failures to retry.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

export function useCommunity(idOrSlug: string) {
  return useQuery(communityQueryOptions(idOrSlug));
}
