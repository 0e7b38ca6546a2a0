import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";

export type PublicProfile = paths["/api/profiles/{username}"]["get"]["responses"][200]["content"]["application/json"];

export const profileQueryKeys = {
  all: ["profiles"] as const,
  byUsername: (username: string) => ["profiles", username.toLowerCase()] as const,
};

export const fetchPublicProfile = (username: string) =>
  unwrap(api.GET("/api/profiles/{username}", { params: { path: { username } } }));

export const publicProfileQueryOptions = (username: string) =>
  queryOptions({ queryKey: profileQueryKeys.byUsername(username), queryFn: () => fetchPublicProfile(username) });

export function usePublicProfile(username: string) {
  return useQuery(publicProfileQueryOptions(username));
}
