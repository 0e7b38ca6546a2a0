import { CalendarPlus } from "lucide-react";
import { lazy, Suspense, useId, useState } from "react";
import { useSearchParams } from "react-router";
import { can } from "#shared/roles";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";
import type { CommunityView } from "#web/features/communities";
import type { Occurrence } from "../api/types";
import { EventList } from "./event-list";
import { MonthView } from "./month-view";

// The dialogs load when first opened: the tab's list comes first.
const EventDialog = lazy(() => import("./event-dialog").then((m) => ({ default: m.EventDialog })));
const EventFormDialog = lazy(() => import("./event-form-dialog").then((m) => ({ default: m.EventFormDialog })));

const VIEWS = [
  { id: "upcoming", label: "Upcoming" },
  { id: "month", label: "Month" },
  { id: "past", label: "Past" },
] as const;
type View = (typeof VIEWS)[number]["id"];

/**
 * The Calendar tab (issue 19): upcoming events as a list, a month grid, past events with their
 * recordings. The view (?view=month) and the open event (?event=<occurrence id>, the address
 * notifications and calendar files link to) live in the URL.
 */
export function CalendarTab({ community: c }: { community: CommunityView }) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const view: View = VIEWS.find((v) => v.id === params.get("view"))?.id ?? "upcoming";
  const openId = params.get("event");
  const [form, setForm] = useState<{ editing: Occurrence | null } | null>(null);
  const manager = can(c.viewer.role, "manage_events");

  const setParam = (name: string, value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { preventScrollReset: true },
    );
  const open = (occurrenceId: string) => setParam("event", occurrenceId);

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-heading`} className="text-lg font-bold tracking-tight text-stone-900">
            Calendar
          </h2>
          <p className="text-sm text-stone-600">Events and live sessions in {c.name}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <div role="group" aria-label="Calendar view" className="inline-flex rounded-lg bg-stone-100 p-1">
            {VIEWS.map((v) => (
              <button
                key={v.id}
                type="button"
                aria-pressed={view === v.id}
                onClick={() => setParam("view", v.id === "upcoming" ? null : v.id)}
                className={cn(
                  "cursor-pointer rounded-md px-3 py-1.5 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-brand-700",
                  view === v.id ? "bg-white text-stone-900 shadow-sm" : "text-stone-600 hover:text-stone-900",
                )}
              >
                {v.label}
              </button>
            ))}
          </div>
          {manager && (
            <Button onClick={() => setForm({ editing: null })}>
              <CalendarPlus className="size-4" aria-hidden="true" />
              New event
            </Button>
          )}
        </div>
      </div>

      {view === "month" ? (
        <MonthView communityId={c.id} onOpen={open} />
      ) : (
        <EventList
          key={view}
          communityId={c.id}
          when={view}
          onOpen={open}
          emptyText={
            view === "past"
              ? "Events that have ended show here, with their recordings."
              : manager
                ? `Plan a live call or a meetup: members of ${c.name} can answer whether they're going.`
                : `When ${c.name} plans an event, it will appear here.`
          }
        />
      )}

      <Suspense fallback={null}>
        {openId && (
          <EventDialog
            occurrenceId={openId}
            onClose={() => setParam("event", null)}
            onEdit={(event) => {
              // One dialog at a time: the form replaces the event, which comes back after a save.
              setParam("event", null);
              setForm({ editing: event });
            }}
          />
        )}
        {form && (
          <EventFormDialog
            community={c}
            editing={form.editing}
            onClose={(saved) => {
              setForm(null);
              if (saved && form.editing) open(form.editing.id);
            }}
          />
        )}
      </Suspense>
    </section>
  );
}
