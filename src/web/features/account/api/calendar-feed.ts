import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";

const calendarFeedKey = ["account", "calendar-feed"] as const;
type CalendarFeed = { url: string | null; created_at: string | null };

export const fetchCalendarFeed = () => unwrap(api.GET("/api/me/calendar-feed"));

export const calendarFeedQueryOptions = () => queryOptions({ queryKey: calendarFeedKey, queryFn: fetchCalendarFeed });

/** The person's private calendar feed URL (null until they make one). */
export function useCalendarFeed() {
  return useQuery(calendarFeedQueryOptions());
}

/** Makes the feed, or gives it a new URL: the old one stops working. */
export function useResetCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST("/api/me/calendar-feed")),
    onSuccess: (feed) => queryClient.setQueryData<CalendarFeed>(calendarFeedKey, feed),
  });
}

/** Turns the feed off: calendar apps subscribed to it stop getting events. */
export function useTurnOffCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/me/calendar-feed")),
    onSuccess: () => queryClient.setQueryData<CalendarFeed>(calendarFeedKey, { url: null, created_at: null }),
  });
}
