import { type QueryKey, queryOptions, useQuery } from "@tanstack/react-query";
import { api, ApiError, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";

export type CommunityView =
  paths["/api/communities/{communityId}"]["get"]["responses"][200]["content"]["application/json"];

/**
 * Every community query key is built here, and only this module knows their layout, so one
 * invalidation reaches every view of a community.
 *
 * A community's parts (members, feed, courses, stats, bans…) are keyed by its id. Only its detail
 * is keyed by what the address holds: the community page is reached by slug (or custom slug) and
 * asks for the community before it knows the id. So the same community may be cached under its
 * id and its slug; `findCachedCommunity` is the one way to look it up by id among those entries.
 */
export const communityQueryKeys = {
  all: ["communities"] as const,
  directory: (filters: { category?: string; q?: string }) => ["communities", "directory", filters] as const,
  /** Prefix of every directory page. */
  directories: () => ["communities", "directory"] as const,
  /** One community, by id or slug as the address names it (see `findCachedCommunity`). */
  detail: (idOrSlug: string) => ["communities", "detail", idOrSlug.toLowerCase()] as const,
  /** Prefix of every community detail query (by id or by slug). */
  details: () => ["communities", "detail"] as const,
  /** Members, feed, courses, stats, bans… of one community (keyed by id). */
  part: (communityId: string, part: string, ...rest: unknown[]) =>
    ["communities", "part", communityId, part, ...rest] as const,
  /** Which community and which part a key built by `part` names; null for any other key. */
  partOf: (queryKey: QueryKey) =>
    queryKey[0] === "communities" && queryKey[1] === "part"
      ? { communityId: queryKey[2] as string, part: queryKey[3] as string, rest: queryKey.slice(4) }
      : null,
  invite: (code: string) => ["communities", "invite", code] as const,
  /** The signed-in person's own communities (the header's switcher, "Your communities" on /). */
  mine: () => ["communities", "mine"] as const,
  /** The owner's dashboard and metrics figures. */
  stats: (communityId: string) => communityQueryKeys.part(communityId, "stats"),
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
