import { ChevronLeft, ChevronRight } from "lucide-react";
import { EVENT_LIMITS, WEEKDAY_LABELS, WEEKDAYS } from "#shared/calendar";
import { useMemo, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { FormMessage } from "#web/components/ui/form-message";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { useEventRange } from "../api/list-events";
import type { CalendarMonthItem } from "#shared/calendar.schemas";
import { dayKey, gridRange, longDateText, monthGrid, monthTitle, timeText } from "../format";
import { useNow, useViewerZone } from "./event-bits";

/** The year and month (0-based) of a calendar date. */
const monthOf = (date: string) => ({ year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)) - 1 });

const HEADINGS = WEEKDAYS.map((d) => WEEKDAY_LABELS[d]);

/** A month grid in the viewer's zone: each day lists its events' times and titles; a title opens the event. */
export function MonthView({ communityId, onOpen }: { communityId: string; onOpen: (occurrenceId: string) => void }) {
  const zone = useViewerZone();
  const today = dayKey(useNow(60_000), zone);
  const [shown, setShown] = useState(() => monthOf(today));
  const days = useMemo(() => monthGrid(shown.year, shown.month), [shown]);
  const range = useMemo(() => gridRange(days), [days]);
  const events = useEventRange(communityId, range.from, range.to, zone);
  const more = useMemo(() => new Map((events.data?.more ?? []).map((m) => [m.day, m.count])), [events.data]);
  const [openDay, setOpenDay] = useState<string | null>(null);
  const byDay = useMemo(() => {
    const map = new Map<string, CalendarMonthItem[]>();
    for (const e of events.data?.items ?? []) {
      const key = dayKey(e.starts_at, zone);
      map.set(key, [...(map.get(key) ?? []), e]);
    }
    return map;
  }, [events.data, zone]);
  const move = (by: number) =>
    setShown(({ year, month }) => {
      const d = new Date(Date.UTC(year, month + by, 1));
      return { year: d.getUTCFullYear(), month: d.getUTCMonth() };
    });
  const title = monthTitle(shown.year, shown.month);

  return (
    <section aria-label={`Month of ${title}`} className="rounded-2xl bg-white shadow-sm ring-1 ring-stone-200">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-stone-200 px-4 py-3">
        <h3 className="text-base font-bold text-stone-900" aria-live="polite">
          {title}
        </h3>
        <div className="flex items-center gap-1">
          <Button variant="secondary" size="sm" onClick={() => setShown(monthOf(today))}>
            Today
          </Button>
          <Button variant="ghost" size="icon" aria-label="Previous month" onClick={() => move(-1)}>
            <ChevronLeft className="size-5" aria-hidden="true" />
          </Button>
          <Button variant="ghost" size="icon" aria-label="Next month" onClick={() => move(1)}>
            <ChevronRight className="size-5" aria-hidden="true" />
          </Button>
        </div>
      </div>
      {events.isError && (
        <FormMessage tone="error" className="m-3">
          {errorMessage(events.error, "Failed to load events.", ["FORBIDDEN", "NOT_FOUND", "VALIDATION"])}
        </FormMessage>
      )}
      <div
        className="grid grid-cols-7 border-b border-stone-200 text-center text-xs font-semibold text-stone-600"
        aria-hidden="true"
      >
        {HEADINGS.map((h) => (
          <div key={h} className="py-2">
            {h}
          </div>
        ))}
      </div>
      <ol className="grid grid-cols-7" aria-busy={events.isFetching || undefined}>
        {days.map((d) => {
          const list = byDay.get(d.key) ?? [];
          const isToday = d.key === today;
          return (
            <li
              key={d.key}
              aria-label={longDateText(`${d.key}T12:00:00Z`, "UTC")}
              className={cn(
                "min-h-24 border-r border-b border-stone-100 p-1 text-left [&:nth-child(7n)]:border-r-0",
                !d.inMonth && "bg-stone-50/70",
              )}
            >
              <span
                className={cn(
                  "ml-auto flex size-6 items-center justify-center rounded-full text-xs font-semibold",
                  isToday ? "bg-brand-700 text-white" : d.inMonth ? "text-stone-800" : "text-stone-500",
                )}
                aria-current={isToday ? "date" : undefined}
              >
                {d.day}
              </span>
              <ul className="mt-0.5 space-y-0.5">
                {list.map((e) => (
                  <li key={e.id}>
                    <button
                      type="button"
                      onClick={() => onOpen(e.id)}
                      className={cn(
                        "block w-full cursor-pointer rounded px-1 py-0.5 text-left text-xs leading-tight hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-700",
                        e.status === "cancelled" ? "text-stone-500 line-through" : "bg-brand-50 text-brand-900",
                      )}
                    >
                      <span className="block font-semibold">{timeText(e.starts_at, zone)}</span>{" "}
                      <span className="line-clamp-2 break-words">{e.title}</span>
                    </button>
                  </li>
                ))}
              </ul>
              {more.get(d.key) ? (
                <button
                  type="button"
                  onClick={() => setOpenDay(d.key)}
                  className="mt-0.5 block w-full cursor-pointer rounded px-1 py-0.5 text-left text-xs font-semibold text-brand-800 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-700"
                >
                  +{more.get(d.key)} more
                  <span className="sr-only"> on {longDateText(`${d.key}T12:00:00Z`, "UTC")}</span>
                </button>
              ) : null}
            </li>
          );
        })}
      </ol>
      {openDay && (
        <DayList
          communityId={communityId}
          day={openDay}
          zone={zone}
          onClose={() => setOpenDay(null)}
          onOpen={(id) => {
            setOpenDay(null);
            onOpen(id);
          }}
        />
      )}
    </section>
  );
}

/** Every event of one busy day (the '+N more' of its cell), soonest first. */
function DayList(props: {
  communityId: string;
  day: string;
  zone: string;
  onClose: () => void;
  onOpen: (occurrenceId: string) => void;
}) {
  const { communityId, day, zone } = props;
  // The day in any zone lies within a day either side of the same date in UTC.
  const start = new Date(`${day}T00:00:00Z`).getTime();
  const from = new Date(start - 86_400_000).toISOString();
  const to = new Date(start + 2 * 86_400_000).toISOString();
  const events = useEventRange(communityId, from, to, zone, EVENT_LIMITS.perDayMax);
  const list = (events.data?.items ?? []).filter((e) => dayKey(e.starts_at, zone) === day);
  const title = longDateText(`${day}T12:00:00Z`, "UTC");
  return (
    <Dialog open onOpenChange={(open) => !open && props.onClose()}>
      <DialogContent title={title} size="md">
        <div className="px-6 pt-4 pb-6 sm:px-8">
          {events.isError && (
            <FormMessage tone="error">
              {errorMessage(events.error, "Failed to load events.", ["FORBIDDEN", "NOT_FOUND", "VALIDATION"])}
            </FormMessage>
          )}
          {events.isPending ? (
            <p className="text-sm text-stone-600">Loading events…</p>
          ) : (
            <ul className="divide-y divide-stone-100" aria-label={`Events on ${title}`}>
              {list.map((e) => (
                <li key={e.id}>
                  <button
                    type="button"
                    onClick={() => props.onOpen(e.id)}
                    className={cn(
                      "flex w-full cursor-pointer gap-3 rounded px-2 py-2 text-left text-sm hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-700",
                      e.status === "cancelled" && "text-stone-500 line-through",
                    )}
                  >
                    <span className="w-20 shrink-0 font-semibold">{timeText(e.starts_at, zone)}</span>
                    <span className="break-words">{e.title}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
