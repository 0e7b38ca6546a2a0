import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { EVENT_LIMITS } from "#shared/calendar";
import { api, ApiError, unwrap } from "#web/lib/api";
import { eventQueryKeys } from "./event-keys";

export const notRetried = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status < 500) && count < 2;

const fetchEvents = (
  communityId: string,
  query: { from?: string; to?: string; when?: "upcoming" | "past"; cursor?: string; limit?: number },
) => unwrap(api.GET("/api/communities/{communityId}/events", { params: { path: { communityId }, query } }));

/** Upcoming (soonest first) or past (latest first) occurrences, a page at a time. */
export const eventPagesQueryOptions = (communityId: string, when: "upcoming" | "past") =>
  infiniteQueryOptions({
    queryKey: eventQueryKeys.page(communityId, when),
    queryFn: ({ pageParam }) =>
      fetchEvents(communityId, { when, limit: EVENT_LIMITS.page, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: "",
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    retry: notRetried,
  });

export const useEventPages = (communityId: string, when: "upcoming" | "past") =>
  useInfiniteQuery(eventPagesQueryOptions(communityId, when));

/**
 * The occurrences between two instants, as the month grid shows them (GET …/calendar): cut into days
 * of `zone`, at most `perDay` a day with the rest counted.
 */
export const eventRangeQueryOptions = (
  communityId: string,
  from: string,
  to: string,
  zone: string,
  perDay: number = EVENT_LIMITS.gridPerDay,
) =>
  queryOptions({
    queryKey: eventQueryKeys.range(communityId, from, to, zone, perDay),
    queryFn: () =>
      unwrap(
        api.GET("/api/communities/{communityId}/calendar", {
          params: { path: { communityId }, query: { from, to, tz: zone, per_day: perDay } },
        }),
      ),
    retry: notRetried,
    placeholderData: (previous) => previous,
  });

export const useEventRange = (communityId: string, from: string, to: string, zone: string, perDay?: number) =>
  useQuery(eventRangeQueryOptions(communityId, from, to, zone, perDay));

/** The next occurrence (the sidebar's 'Up next'); refreshed now and then so it moves on by itself. */
export const upNextQueryOptions = (communityId: string) =>
  queryOptions({
    queryKey: eventQueryKeys.upNext(communityId),
    queryFn: () => fetchEvents(communityId, { when: "upcoming", limit: 1 }),
    select: (page) => page.items[0] ?? null,
    retry: notRetried,
    staleTime: 60_000,
    refetchInterval: 5 * 60_000,
  });

export const useUpNext = (communityId: string, enabled: boolean) =>
  useQuery({ ...upNextQueryOptions(communityId), enabled });
