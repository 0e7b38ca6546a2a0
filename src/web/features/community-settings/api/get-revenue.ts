import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "#web/features/communities";

export type Revenue =
  paths["/api/communities/{communityId}/revenue"]["get"]["responses"][200]["content"]["application/json"];

export const fetchRevenue = (communityId: string) =>
  unwrap(api.GET("/api/communities/{communityId}/revenue", { params: { path: { communityId } } }));

/** The owner's revenue figures (Metrics tab). */
export function useRevenue(communityId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: communityQueryKeys.part(communityId, "revenue"),
    queryFn: () => fetchRevenue(communityId),
    enabled,
  });
}

/** The payments export: a plain link, so the browser downloads it with the session cookie. */
export const paymentsCsvUrl = (communityId: string) =>
  `/api/communities/${encodeURIComponent(communityId)}/payments.csv`;
