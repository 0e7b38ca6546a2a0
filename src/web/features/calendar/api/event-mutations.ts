import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import type { EditScope, RsvpChoice } from "#shared/calendar";
import type { CreateEventInput, UpdateEventInput } from "#shared/calendar.schemas";
import { api, unwrap } from "#web/lib/api";
import type { Occurrence } from "./types";
import { eventQueryKeys } from "./event-keys";

/** After a change every list of the community's events may differ: they are refetched. */
const refreshLists = (queryClient: QueryClient, communityId: string) =>
  queryClient.invalidateQueries({ queryKey: eventQueryKeys.lists(communityId) });

export function useCreateEvent(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateEventInput) =>
      unwrap(api.POST("/api/communities/{communityId}/events", { params: { path: { communityId } }, body })),
    onSuccess: () => refreshLists(queryClient, communityId),
  });
}

/** Edit and cancel one occurrence, it and the following ones, or the whole series. */
export function useEventChanges(event: Pick<Occurrence, "id" | "community_id">) {
  const queryClient = useQueryClient();
  const params = { params: { path: { occurrenceId: event.id } } };
  const settle = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: eventQueryKeys.detail(event.id) }),
      refreshLists(queryClient, event.community_id),
    ]);
  };
  const update = useMutation({
    mutationFn: (body: UpdateEventInput) => unwrap(api.PATCH("/api/events/{occurrenceId}", { ...params, body })),
    onSuccess: settle,
  });
  const cancel = useMutation({
    mutationFn: (scope: EditScope) =>
      unwrap(api.POST("/api/events/{occurrenceId}/cancel", { ...params, body: { scope } })),
    onSuccess: settle,
  });
  return { update, cancel };
}

/** Going / not going. The answer (going or waitlisted, the counts) goes into the cached occurrence at once. */
export function useRsvp(event: Pick<Occurrence, "id" | "community_id">) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: RsvpChoice) =>
      unwrap(
        api.PUT("/api/events/{occurrenceId}/rsvp", { params: { path: { occurrenceId: event.id } }, body: { status } }),
      ),
    onSuccess: async (result) => {
      queryClient.setQueryData<Occurrence>(eventQueryKeys.detail(event.id), (old) =>
        old
          ? {
              ...old,
              going_count: result.going_count,
              waitlist_count: result.waitlist_count,
              viewer: { ...old.viewer, rsvp: result.rsvp, waitlist_position: result.waitlist_position },
            }
          : old,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: eventQueryKeys.attendees(event.id) }),
        refreshLists(queryClient, event.community_id),
      ]);
    },
  });
}
