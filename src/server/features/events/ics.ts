import ical, { ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import type { OccurrenceStatus } from "#shared/calendar";

/*
 * iCalendar files (issue 19): one occurrence as a download, and a person's private feed. Built with
 * ical-generator, which escapes every text (commas, semicolons, backslashes, line breaks) and folds
 * long lines, so a title cannot add properties or events of its own. Each occurrence is its own
 * VEVENT with its times as UTC instants: a series is already expanded into rows, so no RRULE or
 * time zone definition is needed and every calendar app shows the same instants.
 */

/** What a VEVENT is made from: one event_occurrences row (and its community's name). */
export type IcsOccurrence = {
  id: string;
  community_id: string;
  community_name: string;
  title: string;
  description: string;
  starts_at: Date;
  ends_at: Date;
  location_kind: "online" | "place";
  place: string | null;
  status: OccurrenceStatus;
  updated_at: Date;
};

const PROD_ID = { company: "Hearth", product: "Calendar", language: "EN" };
/** SEQUENCE counts seconds from this instant, so it grows with every edit and stays a 32-bit integer for decades. */
const SEQUENCE_EPOCH = Date.UTC(2024, 0, 1);

/** The event's page in Hearth (the Calendar tab with the occurrence open). */
export function eventPageUrl(origin: string, o: { id: string; community_id: string }): string {
  return `${origin}/community/${encodeURIComponent(o.community_id)}?tab=calendar&event=${encodeURIComponent(o.id)}`;
}

/** The stable UID of an occurrence: calendar apps match updates and cancellations on it. */
export const occurrenceUid = (id: string) => `${id}@hearth`;

export function sequenceOf(updatedAt: Date): number {
  return Math.max(0, Math.floor((updatedAt.getTime() - SEQUENCE_EPOCH) / 1000));
}

/**
 * A calendar of occurrences. The meeting link is never written into a file: a file or a feed is
 * read long before the event, and the link is shown only from 15 minutes before the start to those
 * who may attend; the event's page (URL, and LOCATION for an online event) leads to it.
 */
export function buildCalendar(
  occurrences: IcsOccurrence[],
  opts: { origin: string; name?: string; feed?: boolean },
): string {
  const calendar = ical({
    prodId: PROD_ID,
    name: opts.name ?? "Hearth",
    method: opts.feed ? null : ICalCalendarMethod.PUBLISH,
    // REFRESH-INTERVAL and X-PUBLISHED-TTL: how often a subscribed app should fetch the feed again.
    ttl: opts.feed ? 60 * 60 : null,
  });
  for (const o of occurrences) {
    const page = eventPageUrl(opts.origin, o);
    const description = [o.description.trim(), `${o.community_name} on Hearth: ${page}`].filter(Boolean).join("\n\n");
    calendar.createEvent({
      id: occurrenceUid(o.id),
      sequence: sequenceOf(o.updated_at),
      stamp: o.updated_at,
      lastModified: o.updated_at,
      start: o.starts_at,
      end: o.ends_at,
      summary: o.title,
      description,
      location: o.location_kind === "place" && o.place ? o.place : page,
      url: page,
      status: o.status === "cancelled" ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  return calendar.toString();
}

/** The VEVENT lines of one occurrence, as ical-generator writes them (escaped, folded), by what they show. */
const blocks = new Map<string, string>();
/** Blocks kept at most (about 600 bytes each): a feed of 2,000 events is joined from memory. */
const BLOCKS_MAX = 20_000;

function eventBlock(o: IcsOccurrence, origin: string): string {
  // Everything the lines show: an edit that forgot updated_at still gets new lines.
  const key = [
    o.id,
    o.updated_at.getTime(),
    o.starts_at.getTime(),
    o.ends_at.getTime(),
    o.status,
    o.location_kind,
    o.place,
    o.community_name,
    o.title,
    o.description,
    origin,
  ].join("\u0000");
  const hit = blocks.get(key);
  if (hit !== undefined) return hit;
  const one = buildCalendar([o], { origin });
  const start = one.indexOf("BEGIN:VEVENT");
  const end = one.indexOf("END:VEVENT") + "END:VEVENT\r\n".length;
  const block = one.slice(start, end);
  if (blocks.size >= BLOCKS_MAX) blocks.delete(blocks.keys().next().value!);
  blocks.set(key, block);
  return block;
}

/**
 * A subscription feed: the same file buildCalendar writes for these occurrences, made from each
 * occurrence's VEVENT lines kept in memory (ical-generator writes them once per change of the row),
 * between the calendar's own lines. Writing 2,000 events afresh took ~140 ms; joining them takes ~1.
 */
export function buildFeedCalendar(occurrences: IcsOccurrence[], opts: { origin: string; name: string }): string {
  const frame = buildCalendar([], { origin: opts.origin, name: opts.name, feed: true });
  const end = frame.lastIndexOf("END:VCALENDAR");
  let body = "";
  for (const o of occurrences) body += eventBlock(o, opts.origin);
  return frame.slice(0, end) + body + frame.slice(end);
}

/** A file name for an occurrence's download: its title's letters and digits, never a path or a quote. */
export function icsFileName(title: string): string {
  const base = title
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/[\s_-]+/g, "-")
    .slice(0, 60)
    .replace(/-+$/, "")
    .toLowerCase();
  return `${base || "event"}.ics`;
}
