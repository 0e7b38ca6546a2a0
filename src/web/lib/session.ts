import { hashKey, type QueryKey, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { api, unwrap } from "./api";
import type { paths } from "./api-types";

export type Me = paths["/api/me"]["get"]["responses"][200]["content"]["application/json"];
export type SessionUser = NonNullable<Me["user"]>;
export type OwnProfile = NonNullable<Me["profile"]>;

export const meQueryKey = ["me"] as const;

/** Whether the key is exactly the session's (not merely starting like it). */
export const isMeQueryKey = (queryKey: QueryKey) => hashKey(queryKey) === hashKey(meQueryKey);

export const fetchMe = () => unwrap(api.GET("/api/me"));

/** Who is signed in. Everything that depends on the session reads this query. */
export const meQueryOptions = () => queryOptions({ queryKey: meQueryKey, queryFn: fetchMe, staleTime: 60_000 });

export function useMe() {
  return useQuery(meQueryOptions());
}

/** After sign-in, sign-out or a credential change every cached answer may be someone else's: start over. */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await queryClient.refetchQueries({ queryKey: meQueryKey, type: "all" });
    // Everything else was read as someone else: back to its initial state, and pages on screen
    // fetch again at once (removing alone would leave them showing the old answer).
    await queryClient.resetQueries({ predicate: (q) => !isMeQueryKey(q.queryKey) });
  }, [queryClient]);
}
