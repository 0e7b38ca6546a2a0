import * as rruleModule from "rrule";
import { CALENDAR_MESSAGES as M, EVENT_LIMITS, type Recurrence, type Weekday } from "#shared/calendar";
import { AppError } from "#server/lib/errors";

/*
 * Recurrence (issue 19): a series' rule expanded into occurrence instants.
 *
 * The rule works on the wall clock of the event's zone: rrule generates floating wall-clock times
 * (the local time written as if it were UTC, no tzid), and each is turned into the real instant in
 * the zone (zonedWallClockToInstant). So a weekly 10:00 event in New York stays at 10:00 local when
 * daylight saving starts or ends, its UTC offset moving from -5 to -4 and back.
 */

// rrule ships CommonJS for Node and ES modules for bundlers: take RRule from whichever loaded.
const rrule = (
  (rruleModule as unknown as { default?: typeof rruleModule }).default?.RRule
    ? (rruleModule as unknown as { default: typeof rruleModule }).default
    : rruleModule
) as typeof rruleModule;
const { RRule } = rrule;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A validation error shown next to `field` (the error handler sends the field with the message). */
export const fieldError = (message: string, field: string) => new AppError("VALIDATION", message, { field });

// ---------------------------------------------------------------------------------------------
// Wall clock <-> instant in an IANA zone

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall clock of instant `ms` in `zone`, as floating milliseconds (the local time read as UTC). */
function wallMs(ms: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(ms)))
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour % 24, parts.minute, parts.second);
}

/** The zone's UTC offset at instant `ms`, in milliseconds (New York in winter: -5 h). */
export function zoneOffsetMs(ms: number, zone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return wallMs(whole, zone) - whole;
}

/** 'YYYY-MM-DDTHH:mm' as floating milliseconds (the wall clock read as UTC). */
export function parseLocal(local: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) throw fieldError(M.startInvalid, "starts_at_local");
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
}

const formatFloating = (ms: number) => new Date(ms).toISOString().slice(0, 16);

/**
 * The instant a wall-clock time `local` ('YYYY-MM-DDTHH:mm') in `zone` names. A time that does not
 * exist (the spring-forward gap: 02:30 in New York on the second Sunday of March) moves forward by
 * the gap (03:30 EDT); a time that exists twice (the fall-back overlap: 01:30 on the first Sunday of
 * November) is the earlier of the two (01:30 EDT).
 */
export function zonedWallClockToInstant(local: string, zone: string): Date {
  return new Date(floatingToInstant(parseLocal(local), zone));
}

/** zonedWallClockToInstant on floating milliseconds. */
export function floatingToInstant(floating: number, zone: string): number {
  // The offsets in force half a day either side cover any transition near this wall-clock time.
  const before = zoneOffsetMs(floating - DAY / 2, zone);
  const after = zoneOffsetMs(floating + DAY / 2, zone);
  const valid = [floating - before, floating - after].filter((t) => wallMs(t, zone) === floating);
  if (valid.length > 0) return Math.min(...valid);
  // In the gap: read with the offset before the change, which lands the gap's length later.
  return floating - before;
}

/** The wall clock ('YYYY-MM-DDTHH:mm') of an instant in `zone`. */
export function instantToWallClock(instant: Date | number, zone: string): string {
  return formatFloating(wallMs(typeof instant === "number" ? instant : instant.getTime(), zone));
}

// ---------------------------------------------------------------------------------------------
// Rules

const RRULE_DAYS: Record<Weekday, rruleModule.Weekday> = {
  MO: RRule.MO,
  TU: RRule.TU,
  WE: RRule.WE,
  TH: RRule.TH,
  FR: RRule.FR,
  SA: RRule.SA,
  SU: RRule.SU,
};
/** getUTCDay() order (Sunday 0) to rrule's weekdays. */
const BY_JS_DAY = [RRule.SU, RRule.MO, RRule.TU, RRule.WE, RRule.TH, RRule.FR, RRule.SA];

export type SeriesRule = { startsLocal: string; timeZone: string; recurrence: Recurrence | null };

/** The rrule over floating wall-clock times for a series (null for a one-off event). */
function floatingRule(series: SeriesRule): InstanceType<typeof RRule> | null {
  const r = series.recurrence;
  if (!r) return null;
  const dtstart = new Date(parseLocal(series.startsLocal));
  const options: ConstructorParameters<typeof RRule>[0] = {
    dtstart,
    interval: r.interval || 1,
    freq: r.frequency === "daily" ? RRule.DAILY : r.frequency === "weekly" ? RRule.WEEKLY : RRule.MONTHLY,
    wkst: RRule.MO,
  };
  if (r.frequency === "weekly") {
    options.byweekday = (r.weekdays.length ? r.weekdays : (["MO"] as Weekday[])).map((d) => RRULE_DAYS[d]);
  } else if (r.frequency === "monthly") {
    const day = dtstart.getUTCDate();
    if (r.monthly_mode === "nth_weekday") {
      // The start's weekday and its ordinal in the month (the 2nd Tuesday); a start in the fifth
      // week becomes the last such weekday (-1), which every month has.
      const nth = Math.ceil(day / 7);
      options.byweekday = [BY_JS_DAY[dtstart.getUTCDay()].nth(nth >= 5 ? -1 : nth)];
    } else {
      // The same day of every month. A day a month lacks (the 31st, or the 30th in February) is
      // skipped in that month (RFC 5545), not moved to its last day.
      options.bymonthday = [day];
    }
  }
  if (r.end === "on_date" && r.until) {
    // Inclusive: any start on that local date.
    options.until = new Date(Date.parse(`${r.until}T23:59:59Z`));
  } else if (r.end === "after" && r.count) {
    options.count = r.count;
  }
  return new RRule(options);
}

/**
 * Checks a series' rule before it is stored: the end is not before the start, the rule happens at
 * least once, and its first year holds at most `maxPerYear` occurrences (EVENT_LIMITS by default).
 */
export function checkRule(series: SeriesRule, maxPerYear: number = EVENT_LIMITS.occurrencesPerYearMax): void {
  const r = series.recurrence;
  if (!r) return;
  if (r.end === "on_date" && r.until && r.until < series.startsLocal.slice(0, 10))
    throw fieldError(M.untilBeforeStart, "recurrence.until");
  const rule = floatingRule(series)!;
  const start = parseLocal(series.startsLocal);
  const end = new Date(start);
  end.setUTCFullYear(end.getUTCFullYear() + 1);
  let n = 0;
  rule.between(new Date(start), new Date(end.getTime() - 1), true, () => ++n <= maxPerYear);
  const first = rule.after(new Date(start), true);
  if (n > maxPerYear) throw fieldError(M.tooManyOccurrences, "recurrence");
  if (!first) throw fieldError(M.untilBeforeStart, "recurrence.until");
}

/**
 * The slots (rule starts, as instants) of a series with from <= slot < to. A one-off event has
 * one slot: its start. `limit` stops early (the caller asks for one more to know if the rule goes on).
 */
export function expandSeries(series: SeriesRule, from: Date, to: Date, limit = Infinity): Date[] {
  const zone = series.timeZone;
  const rule = floatingRule(series);
  const fromMs = from.getTime();
  const toMs = to.getTime();
  if (!rule) {
    const at = floatingToInstant(parseLocal(series.startsLocal), zone);
    return at >= fromMs && at < toMs ? [new Date(at)] : [];
  }
  // Floating bounds with a margin of more than any UTC offset; exact filtering on instants below.
  const out: Date[] = [];
  rule.between(new Date(fromMs - 2 * DAY + 1), new Date(toMs + 2 * DAY), true, (d) => {
    const at = floatingToInstant(d.getTime(), zone);
    if (at >= toMs) return false;
    if (at >= fromMs) out.push(new Date(at));
    return out.length < limit;
  });
  return out;
}

/** The first slot at or after `from`, or null when the rule has ended. */
export function nextSlot(series: SeriesRule, from: Date): Date | null {
  const rule = floatingRule(series);
  if (!rule) {
    const at = floatingToInstant(parseLocal(series.startsLocal), series.timeZone);
    return at >= from.getTime() ? new Date(at) : null;
  }
  let floating = rule.after(new Date(from.getTime() - 2 * DAY), true);
  while (floating) {
    const at = floatingToInstant(floating.getTime(), series.timeZone);
    if (at >= from.getTime()) return new Date(at);
    floating = rule.after(floating, false);
  }
  return null;
}

/** The local date ('YYYY-MM-DD') before the given one. */
export function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - DAY).toISOString().slice(0, 10);
}
