import { CalendarDays, MapPin, Video } from "lucide-react";
import { useId } from "react";
import { Button, buttonClasses } from "#web/components/ui/button";
import { EmptyState } from "#web/components/empty-state";
import { FormMessage } from "#web/components/ui/form-message";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { useEventPages } from "../api/list-events";
import type { Occurrence } from "../api/types";
import { whenText } from "../format";
import {
  CancelledBadge,
  DateBlock,
  LiveBadge,
  RsvpControls,
  capacityText,
  isFull,
  phaseOf,
  useNow,
  useViewerZone,
} from "./event-bits";

/** Upcoming (soonest first) or past (latest first) events, 'Load more' for the next page. */
export function EventList({
  communityId,
  when,
  onOpen,
  emptyText,
}: {
  communityId: string;
  when: "upcoming" | "past";
  onOpen: (occurrenceId: string) => void;
  emptyText: string;
}) {
  const pages = useEventPages(communityId, when);
  const zone = useViewerZone();
  const now = useNow(30_000);
  const items = pages.data?.pages.flatMap((p) => p.items) ?? [];

  if (pages.isPending)
    return (
      <div aria-busy="true" className="space-y-3">
        <span className="sr-only" role="status">
          Loading events
        </span>
        {[0, 1, 2].map((n) => (
          <div key={n} className="h-24 animate-pulse rounded-2xl bg-white ring-1 ring-stone-200" />
        ))}
      </div>
    );
  if (pages.isError)
    return (
      <FormMessage tone="error">
        {errorMessage(pages.error, "Failed to load events.", ["FORBIDDEN", "NOT_FOUND"])}
      </FormMessage>
    );
  if (items.length === 0)
    return (
      <EmptyState
        icon={CalendarDays}
        title={when === "upcoming" ? "No upcoming events" : "No past events"}
        headingLevel={3}
      >
        <p>{emptyText}</p>
      </EmptyState>
    );

  return (
    <div className="space-y-4">
      <ul className="space-y-3" aria-label={when === "upcoming" ? "Upcoming events" : "Past events"}>
        {items.map((event) => (
          <li key={event.id}>
            <EventRow event={event} zone={zone} now={now} onOpen={onOpen} />
          </li>
        ))}
      </ul>
      {pages.hasNextPage && (
        <div className="flex justify-center">
          <Button variant="secondary" loading={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}

function EventRow({
  event: e,
  zone,
  now,
  onOpen,
}: {
  event: Occurrence;
  zone: string;
  now: number;
  onOpen: (occurrenceId: string) => void;
}) {
  const id = useId();
  const when = whenText(e, zone);
  const phase = phaseOf(e, now);
  const cancelled = e.status === "cancelled";
  const full = isFull(e);
  return (
    <article
      aria-labelledby={`${id}-title`}
      className={cn(
        "relative flex flex-wrap gap-x-4 gap-y-3 rounded-2xl sm:flex-nowrap bg-white p-4 shadow-sm ring-1 ring-stone-200 transition-shadow focus-within:ring-2 focus-within:ring-brand-600 hover:shadow-md sm:p-5",
        cancelled && "opacity-75",
      )}
    >
      <DateBlock startsAt={e.starts_at} zone={zone} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          {phase === "live" && !cancelled && <LiveBadge />}
          {cancelled && <CancelledBadge />}
        </div>
        <h3 id={`${id}-title`} className="text-base leading-snug font-bold text-stone-900">
          {/* The title opens the event; the row is one big target for it. */}
          <button
            type="button"
            className="cursor-pointer text-left after:absolute after:inset-0 after:rounded-2xl after:content-[''] hover:underline focus-visible:outline-none"
            onClick={() => onOpen(e.id)}
          >
            {e.title}
          </button>
        </h3>
        <p className="mt-0.5 text-sm text-stone-700">
          <time dateTime={e.starts_at}>{when.shortDate}</time> · {when.time}
        </p>
        {when.eventZone && <p className="text-xs text-stone-600">{when.eventZone}</p>}
        <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-stone-600">
          <span className="inline-flex min-w-0 items-center gap-1">
            {e.location_kind === "online" ? (
              <Video className="size-4 shrink-0" aria-hidden="true" />
            ) : (
              <MapPin className="size-4 shrink-0" aria-hidden="true" />
            )}
            <span className="truncate">{e.location_kind === "online" ? "Online" : e.place}</span>
          </span>
          {phase !== "past" && !cancelled && <span>{capacityText(e)}</span>}
          {phase !== "past" && !cancelled && full && e.viewer.rsvp !== "going" && e.viewer.rsvp !== "waitlisted" && (
            <span className="font-semibold text-amber-800">Full — join the waitlist</span>
          )}
        </p>
      </div>
      {/* Above the row's big target, so its buttons and links stay reachable. */}
      <div className="relative z-10 flex w-full shrink-0 items-center justify-end gap-2 sm:w-auto sm:flex-col sm:items-end sm:self-center">
        {phase === "past" ? (
          e.recording_url ? (
            <a
              href={e.recording_url}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonClasses({ variant: "secondary", size: "sm" })}
            >
              <Video className="size-4" aria-hidden="true" />
              Watch recording
            </a>
          ) : null
        ) : (
          <RsvpControls event={e} compact />
        )}
      </div>
    </article>
  );
}
