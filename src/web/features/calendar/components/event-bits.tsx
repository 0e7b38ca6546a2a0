import { Check } from "lucide-react";
import { useEffect, useState } from "react";
import { CALENDAR_MESSAGES, eventPhase, type RsvpChoice } from "#shared/calendar";
import { Button } from "#web/components/ui/button";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { useMe } from "#web/lib/session";
import { toast } from "#web/lib/toast";
import { useRsvp } from "../api/event-mutations";
import type { Occurrence } from "../api/types";
import { browserZone, dateBlock } from "../format";

/** The zone the viewer reads times in: their profile's (SPEC's timezone setting), else the browser's. */
export function useViewerZone(): string {
  const me = useMe();
  return me.data?.profile?.timezone || browserZone();
}

/** The time now, ticking every `everyMs` (countdowns, 'Live now'). */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

export const phaseOf = (e: Pick<Occurrence, "starts_at" | "ends_at">, now: number) =>
  eventPhase(Date.parse(e.starts_at), Date.parse(e.ends_at), now);

export const isFull = (e: Pick<Occurrence, "capacity" | "going_count">) =>
  e.capacity != null && e.going_count >= e.capacity;

/** The month and day of an occurrence, as a small calendar leaf. */
export function DateBlock({ startsAt, zone, className }: { startsAt: string; zone: string; className?: string }) {
  const { month, day, weekday } = dateBlock(startsAt, zone);
  return (
    <div
      aria-hidden="true"
      className={cn(
        "flex w-14 shrink-0 flex-col items-center overflow-hidden rounded-xl bg-white text-center ring-1 ring-stone-200",
        className,
      )}
    >
      <span className="w-full bg-brand-700 py-0.5 text-[0.6875rem] font-bold tracking-wider text-white">{month}</span>
      <span className="pt-1 text-xl leading-none font-bold text-stone-900">{day}</span>
      <span className="pb-1 text-[0.6875rem] font-medium text-stone-600">{weekday}</span>
    </div>
  );
}

export function LiveBadge({ className }: { className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full bg-red-50 px-2 py-0.5 text-xs font-bold text-red-700 ring-1 ring-red-200",
        className,
      )}
    >
      <span className="size-1.5 animate-pulse rounded-full bg-red-600" aria-hidden="true" />
      Live now
    </span>
  );
}

export function CancelledBadge() {
  return (
    <span className="inline-flex rounded-full bg-stone-100 px-2 py-0.5 text-xs font-semibold text-stone-700 ring-1 ring-stone-200">
      Cancelled
    </span>
  );
}

/** "3 going", "3 of 10 going", with the waitlist when there is one. */
export function capacityText(e: Pick<Occurrence, "capacity" | "going_count" | "waitlist_count">): string {
  const going = e.capacity == null ? `${e.going_count} going` : `${e.going_count} of ${e.capacity} going`;
  return e.waitlist_count > 0 ? `${going} · ${e.waitlist_count} on the waitlist` : going;
}

export const waitlistText = (position: number | null) =>
  position ? `You're #${position} on the waitlist` : "You're on the waitlist";

/**
 * Going / Not going for one occurrence. When it is full, going means joining the waitlist; once
 * there, the place in line shows. `compact` (the list) offers the main choice only.
 */
export function RsvpControls({ event, compact = false }: { event: Occurrence; compact?: boolean }) {
  const rsvp = useRsvp(event);
  const now = useNow(60_000);
  const phase = phaseOf(event, now);
  if (event.status === "cancelled")
    return compact ? null : <p className="text-sm text-stone-600">{CALENDAR_MESSAGES.cancelled}</p>;
  if (phase === "past") return compact ? null : <p className="text-sm text-stone-600">{CALENDAR_MESSAGES.ended}</p>;
  if (!event.viewer.may_attend) return <p className="text-sm text-stone-600">{CALENDAR_MESSAGES.notInvited}</p>;

  // Awaited rather than given callbacks: the refreshed list may unmount these buttons first.
  const answer = async (status: RsvpChoice) => {
    try {
      const result = await rsvp.mutateAsync(status);
      toast.success(
        result.rsvp === "going"
          ? "You're going"
          : result.rsvp === "waitlisted"
            ? waitlistText(result.waitlist_position)
            : "You're not going",
      );
    } catch (error) {
      toast.error(
        errorMessage(error, "Could not save your answer", ["CONFLICT", "FORBIDDEN", "NOT_FOUND", "VALIDATION"]),
      );
    }
  };
  const pending = rsvp.isPending ? rsvp.variables : null;
  const mine = event.viewer.rsvp;
  const size = compact ? "sm" : "md";

  if (mine === "waitlisted")
    return (
      <div className={cn("flex flex-wrap items-center gap-2", compact && "justify-end")}>
        <span className="text-sm font-semibold text-amber-800">{waitlistText(event.viewer.waitlist_position)}</span>
        {!compact && (
          <Button
            variant="secondary"
            size={size}
            loading={pending === "not_going"}
            onClick={() => void answer("not_going")}
          >
            Leave the waitlist
          </Button>
        )}
      </div>
    );

  const full = isFull(event) && mine !== "going";
  return (
    <div role="group" aria-label={`Your answer for ${event.title}`} className="flex flex-wrap items-center gap-2">
      <Button
        size={size}
        variant={mine === "going" ? "soft" : "primary"}
        aria-pressed={mine === "going"}
        loading={pending === "going"}
        onClick={() => (mine === "going" ? undefined : void answer("going"))}
      >
        {mine === "going" && <Check className="size-4" aria-hidden="true" />}
        {mine === "going" ? "Going" : full ? "Join waitlist" : "Going"}
      </Button>
      {(!compact || mine === "going") && (
        <Button
          size={size}
          variant="secondary"
          aria-pressed={mine === "not_going"}
          loading={pending === "not_going"}
          onClick={() => void answer("not_going")}
        >
          Not going
        </Button>
      )}
    </div>
  );
}
