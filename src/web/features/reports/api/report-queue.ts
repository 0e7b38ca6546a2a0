import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type { z } from "zod";
import type { decideReportSchema, ReportCase } from "#shared/reports.schemas";
import { invalidateFeeds } from "#web/features/posts";
import { reportQueryKeys } from "./report-keys";
import { request } from "./request";

export type { ReportCase };
export type ReportQueuePage = { items: ReportCase[]; next_cursor: string | null; count: number };
export type DecideReportInput = z.input<typeof decideReportSchema>;

const base = (communityId: string) => `/api/communities/${encodeURIComponent(communityId)}/reports`;

export const fetchReportQueue = (communityId: string, cursor?: string) =>
  request<ReportQueuePage>("GET", `${base(communityId)}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`);

export const reportQueueQueryOptions = (communityId: string) =>
  infiniteQueryOptions({
    queryKey: reportQueryKeys.queue(communityId),
    queryFn: ({ pageParam }) => fetchReportQueue(communityId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });

/** Open cases, oldest first (owners, admins, moderators). */
export function useReportQueue(communityId: string) {
  return useInfiniteQuery(reportQueueQueryOptions(communityId));
}

export const fetchReportCount = (communityId: string) =>
  request<{ count: number }>("GET", `${base(communityId)}/count`);

export const reportCountQueryOptions = (communityId: string) =>
  queryOptions({ queryKey: reportQueryKeys.count(communityId), queryFn: () => fetchReportCount(communityId) });

/** How many cases are open (the Admin tab's badge). */
export function useReportCount(communityId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...reportCountQueryOptions(communityId), enabled });
}

export const decideReport = (communityId: string, caseId: string, body: DecideReportInput) =>
  request<ReportCase>("POST", `${base(communityId)}/${encodeURIComponent(caseId)}/decide`, body);

/** Dismiss, remove, warn or ban: the case leaves the queue and the feeds are read again. */
export function useDecideReport(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ caseId, ...body }: DecideReportInput & { caseId: string }) =>
      decideReport(communityId, caseId, body),
    onSuccess: (_, { caseId }) => {
      queryClient.setQueryData(
        reportQueryKeys.queue(communityId),
        (data: typeof undefined | { pages: ReportQueuePage[]; pageParams: unknown[] }) =>
          data
            ? { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.filter((c) => c.id !== caseId) })) }
            : data,
      );
      void queryClient.invalidateQueries({ queryKey: reportQueryKeys.queue(communityId) });
      invalidateFeeds(queryClient);
    },
  });
}
