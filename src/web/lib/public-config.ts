import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./api";

export const fetchPublicConfig = () => unwrap(api.GET("/api/config"));

export const publicConfigQueryOptions = () =>
  queryOptions({ queryKey: ["config"] as const, queryFn: fetchPublicConfig, staleTime: 5 * 60_000 });

/** Public settings of this installation (Google sign-in, mail transport). */
export function usePublicConfig() {
  return useQuery(publicConfigQueryOptions());
}
