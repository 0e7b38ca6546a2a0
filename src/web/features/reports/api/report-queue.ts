import {
  infiniteQueryOptions,
  type InfiniteData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { invalidateFeeds } from "#web/features/posts";
import { reportQueryKeys } from "./report-keys";

type QueuePath = paths["/api/communities/{idOrSlug}/reports"]["get"];
export type ReportQueuePage = QueuePath["responses"][200]["content"]["application/json"];
export type ReportCase = ReportQueuePage["items"][number];
type DecidePath = paths["/api/communities/{idOrSlug}/reports/{caseId}/decide"]["post"];
export type DecideReportInput = NonNullable<DecidePath["requestBody"]>["content"]["application/json"];

export const fetchReportQueue = (idOrSlug: string, cursor?: string) =>
  unwrap(
    api.GET("/api/communities/{idOrSlug}/reports", {
      params: { path: { idOrSlug }, query: cursor ? { cursor } : {} },
    }),
  );

export const reportQueueQueryOptions = (communityId: string) =>
  infiniteQueryOptions({
    queryKey: reportQueryKeys.queue(communityId),
    queryFn: ({ pageParam }) => fetchReportQueue(communityId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });

/** The community's cases, open ones first (owners, admins, moderators). */
export function useReportQueue(communityId: string) {
  return useInfiniteQuery(reportQueueQueryOptions(communityId));
}

export const fetchReportCount = (idOrSlug: string) =>
  unwrap(api.GET("/api/communities/{idOrSlug}/reports/count", { params: { path: { idOrSlug } } }));

export const reportCountQueryOptions = (communityId: string) =>
  queryOptions({ queryKey: reportQueryKeys.count(communityId), queryFn: () => fetchReportCount(communityId) });

/** How many cases are open (the Reports section's badge). */
export function useReportCount(communityId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...reportCountQueryOptions(communityId), enabled });
}

export const decideReport = (idOrSlug: string, caseId: string, body: DecideReportInput) =>
  unwrap(
    api.POST("/api/communities/{idOrSlug}/reports/{caseId}/decide", {
      params: { path: { idOrSlug, caseId } },
      body,
    }),
  );

/** Dismiss, remove, warn or ban: the case leaves the queue at once, and the feeds are read again. */
export function useDecideReport(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ caseId, ...body }: DecideReportInput & { caseId: string }) =>
      decideReport(communityId, caseId, body),
    onSuccess: (decided) => {
      queryClient.setQueryData<InfiniteData<ReportQueuePage>>(
        reportQueryKeys.queue(communityId),
        (data) =>
          data && {
            ...data,
            pages: data.pages.map((p) => ({ ...p, items: p.items.map((c) => (c.id === decided.id ? decided : c)) })),
          },
      );
      void queryClient.invalidateQueries({ queryKey: reportQueryKeys.queue(communityId) });
      invalidateFeeds(queryClient);
    },
  });
}
