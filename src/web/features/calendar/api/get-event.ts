import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { eventQueryKeys } from "./event-keys";
import { notRetried } from "./list-events";

export const eventQueryOptions = (occurrenceId: string) =>
  queryOptions({
    queryKey: eventQueryKeys.detail(occurrenceId),
    queryFn: () => unwrap(api.GET("/api/events/{occurrenceId}", { params: { path: { occurrenceId } } })),
    retry: notRetried,
  });

export const useEvent = (occurrenceId: string) => useQuery(eventQueryOptions(occurrenceId));

/** Who is going (names and avatars), a page at a time, and how many wait. */
export const attendeesQueryOptions = (occurrenceId: string) =>
  infiniteQueryOptions({
    queryKey: eventQueryKeys.attendees(occurrenceId),
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET("/api/events/{occurrenceId}/attendees", {
          params: { path: { occurrenceId }, query: pageParam ? { cursor: pageParam } : {} },
        }),
      ),
    initialPageParam: "",
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    retry: notRetried,
  });

export const useAttendees = (occurrenceId: string, enabled: boolean) =>
  useInfiniteQuery({ ...attendeesQueryOptions(occurrenceId), enabled });

/** The .ics file of one occurrence (a plain link with download). */
export const icsPath = (occurrenceId: string) => `/api/events/${encodeURIComponent(occurrenceId)}/ics`;
