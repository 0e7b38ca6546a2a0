import { WEEKDAYS, type Weekday } from "#shared/calendar";

/**
 * Calendar times on the web, with Intl.DateTimeFormat only. Every time is shown in the viewer's
 * zone (their profile's, else the browser's); the event's own zone is named beside it when it
 * differs, so a New York call reads right in London.
 */

/** The browser's zone, the fallback when the profile names none. */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

const formats = new Map<string, Intl.DateTimeFormat>();
function format(zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${zone}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { ...options, timeZone: zone });
    formats.set(key, f);
  }
  return f;
}

const at = (value: string | number | Date) => (value instanceof Date ? value : new Date(value));

/** "10:00 AM" */
export const timeText = (value: string | number | Date, zone: string) =>
  format(zone, { hour: "numeric", minute: "2-digit" }).format(at(value));

/** "10:00 AM EST" */
export const timeWithZoneText = (value: string | number | Date, zone: string) =>
  format(zone, { hour: "numeric", minute: "2-digit", timeZoneName: "short" }).format(at(value));

/** "Thu, Nov 26" */
export const shortDateText = (value: string | number | Date, zone: string) =>
  format(zone, { weekday: "short", month: "short", day: "numeric" }).format(at(value));

/** "Thursday, November 26, 2026" */
export const longDateText = (value: string | number | Date, zone: string) =>
  format(zone, { weekday: "long", month: "long", day: "numeric", year: "numeric" }).format(at(value));

/** "November 2026" for a month (0-based) of the calendar. */
export const monthTitle = (year: number, month: number) =>
  format("UTC", { month: "long", year: "numeric" }).format(new Date(Date.UTC(year, month, 1)));

/** The month (short, upper case) and day of an instant in a zone: the list's date block. */
export function dateBlock(value: string, zone: string) {
  const parts = format(zone, { month: "short", day: "numeric", weekday: "short" }).formatToParts(at(value));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { month: get("month").toUpperCase(), day: get("day"), weekday: get("weekday") };
}

/** The calendar date (YYYY-MM-DD) an instant falls on in a zone. */
export function dayKey(value: string | number | Date, zone: string): string {
  const parts = format(zone, { year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(at(value));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** A zone's name as people read it: "America/New_York" → "New York". */
export const zoneCity = (zone: string) => zone.split("/").pop()?.replaceAll("_", " ") ?? zone;

/** When an occurrence happens, for the viewer: the date, the times, and the event's zone when it differs. */
export function whenText(e: { starts_at: string; ends_at: string; time_zone: string }, viewerZone: string) {
  // An end at midnight belongs to the day before (9 PM – 12 AM, not "Sat, 12 AM").
  const sameDay = dayKey(e.starts_at, viewerZone) === dayKey(Date.parse(e.ends_at) - 1, viewerZone);
  const time = `${timeText(e.starts_at, viewerZone)} – ${
    sameDay
      ? timeWithZoneText(e.ends_at, viewerZone)
      : `${shortDateText(e.ends_at, viewerZone)}, ${timeWithZoneText(e.ends_at, viewerZone)}`
  }`;
  const eventZone =
    e.time_zone !== viewerZone && timeText(e.starts_at, e.time_zone) !== timeText(e.starts_at, viewerZone)
      ? `${timeWithZoneText(e.starts_at, e.time_zone)} in ${zoneCity(e.time_zone)}`
      : null;
  return {
    date: longDateText(e.starts_at, viewerZone),
    shortDate: shortDateText(e.starts_at, viewerZone),
    time,
    eventZone,
  };
}

/** "Starts in 2d 4h", "Starts in 3h 12m", in the last hour "Starts in 12:34". */
export function countdownText(startsAt: number, now: number): string {
  const seconds = Math.max(0, Math.floor((startsAt - now) / 1000));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `Starts in ${days}d ${hours}h`;
  if (hours > 0) return `Starts in ${hours}h ${minutes}m`;
  return `Starts in ${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

/** A day of the month grid. */
export type GridDay = { key: string; day: number; inMonth: boolean };

/** The six weeks (Monday first) that show a month, as calendar dates. */
export function monthGrid(year: number, month: number): GridDay[] {
  const first = new Date(Date.UTC(year, month, 1));
  const lead = (first.getUTCDay() + 6) % 7;
  return Array.from({ length: 42 }, (_, i) => {
    const d = new Date(Date.UTC(year, month, 1 - lead + i));
    return { key: d.toISOString().slice(0, 10), day: d.getUTCDate(), inMonth: d.getUTCMonth() === month };
  });
}

/**
 * The instants to ask the server for a month grid: a day beyond each end (no zone is more than 14
 * hours off UTC), 44 days in all, within the API's 45.
 */
export function gridRange(days: GridDay[]) {
  const from = new Date(`${days[0].key}T00:00:00Z`).getTime() - 86_400_000;
  const to = new Date(`${days[days.length - 1].key}T00:00:00Z`).getTime() + 2 * 86_400_000;
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

const ORDINALS = ["first", "second", "third", "fourth", "last"];

/** The weekday (RFC 5545 code) of a calendar date. */
export const weekdayOf = (date: string): Weekday => WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7];

const WEEKDAY_NAMES: Record<Weekday, string> = {
  MO: "Monday",
  TU: "Tuesday",
  WE: "Wednesday",
  TH: "Thursday",
  FR: "Friday",
  SA: "Saturday",
  SU: "Sunday",
};

/** The two monthly choices for a first date: "Monthly on day 14", "Monthly on the second Tuesday". */
export function monthlyLabels(date: string) {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime()))
    return { day_of_month: "Monthly on the same day", nth_weekday: "Monthly on the same weekday" };
  const day = d.getUTCDate();
  // A fifth weekday is always the month's last (the server's -1).
  const nth = Math.ceil(day / 7) - 1;
  return {
    day_of_month: `Monthly on day ${day}`,
    nth_weekday: `Monthly on the ${ORDINALS[nth]} ${WEEKDAY_NAMES[weekdayOf(date)]}`,
  };
}

/** Every IANA zone the browser knows, the viewer's first. */
export function zoneOptions(viewerZone: string): { value: string; label: string }[] {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const rest = all.filter((z) => z !== viewerZone);
  return [viewerZone, ...rest].map((z) => ({ value: z, label: z.replaceAll("_", " ") }));
}
