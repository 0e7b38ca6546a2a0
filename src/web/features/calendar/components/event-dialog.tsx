import { CalendarPlus, Clock, Download, MapPin, Pencil, Users, Video, XCircle } from "lucide-react";
import { useState } from "react";
import {
  CALENDAR_MESSAGES,
  EDIT_SCOPE_LABELS,
  EVENT_LIMITS,
  EDIT_SCOPES,
  type EditScope,
  googleCalendarUrl,
  meetingLinkOpen,
} from "#shared/calendar";
import { Avatar } from "#web/components/ui/avatar";
import { Button, buttonClasses } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu";
import { FormMessage } from "#web/components/ui/form-message";
import { Spinner } from "#web/components/ui/spinner";
import { ApiError, errorMessage } from "#web/lib/api";
import { toast } from "#web/lib/toast";
import { useEventChanges } from "../api/event-mutations";
import { icsPath, useAttendees, useEvent } from "../api/get-event";
import type { Occurrence } from "../api/types";
import { whenText } from "../format";
import { CancelledBadge, LiveBadge, RsvpControls, capacityText, phaseOf, useNow, useViewerZone } from "./event-bits";

/** One occurrence: when and where, RSVP, who is going, add to calendar; Edit and Cancel for managers. */
export function EventDialog({
  occurrenceId,
  onClose,
  onEdit,
}: {
  occurrenceId: string;
  onClose: () => void;
  onEdit: (event: Occurrence) => void;
}) {
  const event = useEvent(occurrenceId);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      {event.data ? (
        <EventPanel event={event.data} onEdit={onEdit} onClose={onClose} />
      ) : (
        <DialogContent title={event.isError ? "Event unavailable" : "Loading the event"} size="md">
          <div className="px-6 pt-4 pb-8 sm:px-8">
            {event.isError ? (
              <FormMessage tone="error">
                {event.error instanceof ApiError && event.error.status === 404
                  ? CALENDAR_MESSAGES.notFound
                  : errorMessage(event.error, "Failed to load the event.", ["FORBIDDEN"])}
              </FormMessage>
            ) : (
              <Spinner label="Loading the event" className="flex justify-center py-8" />
            )}
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}

function EventPanel({
  event: e,
  onEdit,
  onClose,
}: {
  event: Occurrence;
  onEdit: (event: Occurrence) => void;
  onClose: () => void;
}) {
  const zone = useViewerZone();
  const now = useNow(15_000);
  const phase = phaseOf(e, now);
  const when = whenText(e, zone);
  const cancelled = e.status === "cancelled";
  const [cancelling, setCancelling] = useState(false);
  const linkOpen = meetingLinkOpen(Date.parse(e.starts_at), Date.parse(e.ends_at), now);

  return (
    <DialogContent
      title={e.title}
      size="md"
      header={
        e.cover_url ? (
          <img
            src={e.cover_url}
            alt=""
            width={800}
            height={300}
            className="aspect-[8/3] w-full rounded-t-2xl object-cover"
          />
        ) : undefined
      }
    >
      <div className="space-y-5 px-6 pt-3 pb-6 sm:px-8 sm:pb-8">
        {(phase === "live" || cancelled) && (
          <div className="flex gap-2">{cancelled ? <CancelledBadge /> : <LiveBadge />}</div>
        )}
        <dl className="space-y-3 text-sm">
          <div className="flex gap-3">
            <dt>
              <Clock className="mt-0.5 size-4 text-stone-500" aria-hidden="true" />
              <span className="sr-only">When</span>
            </dt>
            <dd className="text-stone-800">
              <p className="font-semibold">{when.date}</p>
              <p>{when.time}</p>
              {when.eventZone && <p className="text-stone-600">{when.eventZone}</p>}
            </dd>
          </div>
          <div className="flex gap-3">
            <dt>
              {e.location_kind === "online" ? (
                <Video className="mt-0.5 size-4 text-stone-500" aria-hidden="true" />
              ) : (
                <MapPin className="mt-0.5 size-4 text-stone-500" aria-hidden="true" />
              )}
              <span className="sr-only">Where</span>
            </dt>
            <dd className="min-w-0 text-stone-800">
              {e.location_kind === "place" ? (
                <p className="break-words">{e.place}</p>
              ) : (
                <>
                  <p className="font-semibold">Online</p>
                  {!cancelled && phase !== "past" && e.meeting_url && (
                    <a
                      href={e.meeting_url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className={`${buttonClasses({ size: "sm" })} mt-2`}
                    >
                      <Video className="size-4" aria-hidden="true" />
                      Join the meeting
                    </a>
                  )}
                  {!cancelled &&
                    phase !== "past" &&
                    !e.meeting_url &&
                    e.has_meeting_link &&
                    e.viewer.may_attend &&
                    !linkOpen && (
                      <p className="text-stone-600">
                        The link appears {EVENT_LIMITS.linkRevealMinutes} minutes before the start.
                      </p>
                    )}
                </>
              )}
            </dd>
          </div>
          <div className="flex gap-3">
            <dt>
              <Users className="mt-0.5 size-4 text-stone-500" aria-hidden="true" />
              <span className="sr-only">Attendance</span>
            </dt>
            <dd className="text-stone-800">{capacityText(e)}</dd>
          </div>
        </dl>

        {e.description && <p className="text-sm leading-relaxed whitespace-pre-line text-stone-700">{e.description}</p>}

        {phase === "past" && e.recording_url && (
          <a
            href={e.recording_url}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClasses({ variant: "secondary" })}
          >
            <Video className="size-4" aria-hidden="true" />
            Watch recording
          </a>
        )}

        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-stone-100 pt-4">
          <RsvpControls event={e} />
          {!cancelled && phase !== "past" && <AddToCalendar event={e} />}
        </div>

        <Attendees event={e} />

        {e.viewer.may_manage && !cancelled && (
          <div className="border-t border-stone-100 pt-4">
            {cancelling ? (
              <CancelEvent event={e} onDone={(done) => (done ? onClose() : setCancelling(false))} />
            ) : (
              <div className="flex flex-wrap gap-2">
                <Button variant="secondary" onClick={() => onEdit(e)}>
                  <Pencil className="size-4" aria-hidden="true" />
                  Edit
                </Button>
                <Button variant="ghost" className="text-red-700 hover:bg-red-50" onClick={() => setCancelling(true)}>
                  <XCircle className="size-4" aria-hidden="true" />
                  Cancel event
                </Button>
              </div>
            )}
          </div>
        )}
      </div>
    </DialogContent>
  );
}

/** 'Add to calendar': the occurrence's .ics file, or Google Calendar's form filled in. */
function AddToCalendar({ event: e }: { event: Occurrence }) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger className={buttonClasses({ variant: "secondary" })}>
        <CalendarPlus className="size-4" aria-hidden="true" />
        Add to calendar
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuItem asChild>
          <a href={icsPath(e.id)} download>
            <Download aria-hidden="true" />
            Download .ics
          </a>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <a
            href={googleCalendarUrl({
              title: e.title,
              description: e.description,
              starts_at: e.starts_at,
              ends_at: e.ends_at,
              location: e.location_kind === "place" ? e.place : (e.meeting_url ?? null),
            })}
            target="_blank"
            rel="noopener noreferrer"
          >
            <CalendarPlus aria-hidden="true" />
            Google Calendar
          </a>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** Who is going: avatars and names, a page at a time. */
function Attendees({ event: e }: { event: Occurrence }) {
  const attendees = useAttendees(e.id, e.going_count > 0);
  const people = attendees.data?.pages.flatMap((p) => p.going) ?? [];
  if (e.going_count === 0) return null;
  return (
    <section aria-labelledby={`attendees-${e.id}`}>
      <h3 id={`attendees-${e.id}`} className="text-sm font-semibold text-stone-900">
        Going ({e.going_count})
      </h3>
      {attendees.isError ? (
        <p className="mt-2 text-sm text-stone-600">{errorMessage(attendees.error, "Failed to load who is going.")}</p>
      ) : (
        <ul className="mt-2 grid gap-2 sm:grid-cols-2">
          {people.map((p) => (
            <li key={p.user_id} className="flex min-w-0 items-center gap-2 text-sm text-stone-800">
              <Avatar src={p.avatar_url} name={p.full_name || p.username} size="sm" />
              <span className="truncate">{p.full_name || p.username}</span>
            </li>
          ))}
        </ul>
      )}
      {attendees.hasNextPage && (
        <Button
          variant="ghost"
          size="sm"
          className="mt-2"
          loading={attendees.isFetchingNextPage}
          onClick={() => void attendees.fetchNextPage()}
        >
          Show more
        </Button>
      )}
    </section>
  );
}

/** Cancelling: for a recurring event, which occurrences (this one, this and following, all). */
function CancelEvent({ event: e, onDone }: { event: Occurrence; onDone: (cancelled: boolean) => void }) {
  const { cancel } = useEventChanges(e);
  const [scope, setScope] = useState<EditScope>("one");
  return (
    <div className="space-y-3 rounded-xl bg-red-50/60 p-4 ring-1 ring-red-100">
      <p className="text-sm font-semibold text-stone-900">Cancel {e.title}?</p>
      <p className="text-sm text-stone-700">Those going are told it is cancelled.</p>
      {e.recurring && (
        <fieldset className="space-y-1.5">
          <legend className="mb-1 text-sm font-medium text-stone-800">Which events?</legend>
          {EDIT_SCOPES.map((s) => (
            <label key={s} className="flex items-center gap-2 text-sm text-stone-800">
              <input
                type="radio"
                name="cancel-scope"
                value={s}
                checked={scope === s}
                onChange={() => setScope(s)}
                className="accent-brand-700"
              />
              {EDIT_SCOPE_LABELS[s]}
            </label>
          ))}
        </fieldset>
      )}
      {cancel.error && (
        <FormMessage tone="error">
          {errorMessage(cancel.error, "Could not cancel the event", [
            "CONFLICT",
            "FORBIDDEN",
            "NOT_FOUND",
            "VALIDATION",
          ])}
        </FormMessage>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="danger"
          loading={cancel.isPending}
          onClick={async () => {
            // Awaited rather than given callbacks: the refetched event (now cancelled) unmounts this panel.
            try {
              await cancel.mutateAsync(e.recurring ? scope : "one");
            } catch {
              return; // shown from the mutation's error
            }
            toast.success("Event cancelled");
            onDone(true);
          }}
        >
          Cancel event
        </Button>
        <Button variant="ghost" onClick={() => onDone(false)}>
          Keep it
        </Button>
      </div>
    </div>
  );
}
