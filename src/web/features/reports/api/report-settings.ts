import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { reportQueryKeys } from "./report-keys";

type SettingsPath = paths["/api/communities/{idOrSlug}/reports/settings"];
export type ReportSettings = SettingsPath["get"]["responses"][200]["content"]["application/json"];
export type ReportSettingsChanges = NonNullable<SettingsPath["put"]["requestBody"]>["content"]["application/json"];

export const fetchReportSettings = (idOrSlug: string) =>
  unwrap(api.GET("/api/communities/{idOrSlug}/reports/settings", { params: { path: { idOrSlug } } }));

export const reportSettingsQueryOptions = (communityId: string) =>
  queryOptions({ queryKey: reportQueryKeys.settings(communityId), queryFn: () => fetchReportSettings(communityId) });

/** Settings → Moderation: the reports that hide a post or comment, the level to start a chat. */
export function useReportSettings(communityId: string) {
  return useQuery(reportSettingsQueryOptions(communityId));
}

export const updateReportSettings = (idOrSlug: string, changes: ReportSettingsChanges) =>
  unwrap(api.PUT("/api/communities/{idOrSlug}/reports/settings", { params: { path: { idOrSlug } }, body: changes }));

export function useUpdateReportSettings(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ReportSettingsChanges) => updateReportSettings(communityId, changes),
    onSuccess: (saved) => queryClient.setQueryData(reportQueryKeys.settings(communityId), saved),
  });
}
