import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { reportSettingsSchema } from "#shared/reports.schemas";
import { reportQueryKeys } from "./report-keys";
import { request } from "./request";

export type ReportSettings = Required<z.output<typeof reportSettingsSchema>>;
export type ReportSettingsChanges = z.input<typeof reportSettingsSchema>;

const path = (communityId: string) => `/api/communities/${encodeURIComponent(communityId)}/reports/settings`;

export const fetchReportSettings = (communityId: string) => request<ReportSettings>("GET", path(communityId));

export const reportSettingsQueryOptions = (communityId: string) =>
  queryOptions({ queryKey: reportQueryKeys.settings(communityId), queryFn: () => fetchReportSettings(communityId) });

/** Settings → Moderation: the reports that hide a post or comment, the level to start a chat. */
export function useReportSettings(communityId: string) {
  return useQuery(reportSettingsQueryOptions(communityId));
}

export const updateReportSettings = (communityId: string, changes: ReportSettingsChanges) =>
  request<ReportSettings>("PUT", path(communityId), changes);

export function useUpdateReportSettings(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ReportSettingsChanges) => updateReportSettings(communityId, changes),
    onSuccess: (saved) => queryClient.setQueryData(reportQueryKeys.settings(communityId), saved),
  });
}
