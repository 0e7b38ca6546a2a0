import { sql, type SQL } from "drizzle-orm";
import { CALENDAR_MESSAGES as M, EVENT_LIMITS, meetingLinkOpen, type Recurrence } from "#shared/calendar";
import type { OccurrenceDto } from "#shared/calendar.schemas";
import { can } from "#shared/roles";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { AppError } from "#server/lib/errors";
import { isUuid, requireCommunity } from "#server/lib/community-access";
import { mayAttendSql, mayManageSql, occurrenceSeenSql, viewerJoinSql } from "./event-access";
import { fieldError } from "./recurrence";

/*
 * Reading events (issue 19): the month view (a range), the upcoming and past pages, one occurrence.
 * Every read is one statement over event_occurrences joined to the viewer's membership, filtered by
 * event-access.ts: only members see events. A private community's calendar answers a non-member
 * like a missing community (404); a public community's answers a non-member (or a visitor) with an
 * empty list, and an occurrence with 404 'Event not found', so nothing of it shows to outsiders.
 */

type Row = {
  id: string;
  series_id: string;
  community_id: string;
  title: string;
  description: string;
  /** ISO instants, formatted by PostgreSQL (no Date parsing per row). */
  starts_at: string;
  ends_at: string;
  time_zone: string;
  duration_minutes: number;
  location_kind: OccurrenceDto["location_kind"];
  place: string | null;
  meeting_url: string | null;
  cover_url: string | null;
  audience: OccurrenceDto["audience"];
  tier_ids: string[];
  capacity: number | null;
  going_count: number;
  waitlist_count: number;
  status: OccurrenceDto["status"];
  recording_url: string | null;
  /** The series' rule as JSON text, parsed once per series (see rowsToDtos). */
  recurrence: string | null;
  starts_at_local: string;
  may_attend: boolean;
  may_manage: boolean;
  rsvp: OccurrenceDto["viewer"]["rsvp"];
  waitlist_position: number | null;
};

/** ISO text of a timestamptz column, as Date.toISOString writes it. */
const isoSql = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** Rows to DTOs; each series' rule is parsed once. */
function rowsToDtos(rows: Row[], now = Date.now()): OccurrenceDto[] {
  const rules = new Map<string, Recurrence | null>();
  return rows.map((r) => {
    let rule = rules.get(r.series_id);
    if (rule === undefined) {
      rule = r.recurrence ? (JSON.parse(r.recurrence) as Recurrence) : null;
      rules.set(r.series_id, rule);
    }
    return toDto(r, rule, now);
  });
}

/** The occurrence as the API answers it: the meeting link only to those who may attend, and only near the start. */
function toDto(r: Row, recurrence: Recurrence | null, now: number): OccurrenceDto {
  const start = Date.parse(r.starts_at);
  const end = Date.parse(r.ends_at);
  const linkShown = r.may_attend && r.status === "scheduled" && meetingLinkOpen(start, end, now);
  return {
    id: r.id,
    series_id: r.series_id,
    community_id: r.community_id,
    title: r.title,
    description: r.description,
    starts_at: r.starts_at,
    ends_at: r.ends_at,
    time_zone: r.time_zone,
    duration_minutes: r.duration_minutes,
    location_kind: r.location_kind,
    place: r.place,
    meeting_url: linkShown ? r.meeting_url : null,
    has_meeting_link: Boolean(r.meeting_url),
    cover_url: r.cover_url,
    audience: r.audience,
    tier_ids: r.tier_ids ?? [],
    capacity: r.capacity,
    going_count: r.going_count,
    waitlist_count: r.waitlist_count,
    status: r.status,
    recording_url: r.recording_url,
    recurring: recurrence != null,
    recurrence,
    starts_at_local: r.starts_at_local,
    viewer: {
      may_attend: Boolean(r.may_attend),
      may_manage: Boolean(r.may_manage),
      rsvp: r.rsvp,
      waitlist_position: r.rsvp === "waitlisted" ? r.waitlist_position : null,
    },
  };
}

/** The SELECT of occurrences `o` as `userId` sees them (the caller adds WHERE conditions after `AND`). */
function selectOccurrences(userId: string, where: SQL, tail: SQL = sql``): SQL {
  return sql`
    SELECT o.id, o.series_id, o.community_id, o.title, o.description, ${isoSql("o.starts_at")} AS starts_at,
           ${isoSql("o.ends_at")} AS ends_at, o.time_zone,
           o.duration_minutes, o.location_kind, o.place, o.meeting_url, o.cover_url, o.audience, o.tier_ids::text[] AS tier_ids,
           o.capacity, o.going_count, o.waitlist_count, o.status, o.recording_url, s.recurrence::text AS recurrence,
           to_char(o.starts_at AT TIME ZONE o.time_zone, 'YYYY-MM-DD"T"HH24:MI') AS starts_at_local,
           coalesce(${mayAttendSql(userId)}, false) AS may_attend, ${mayManageSql()} AS may_manage,
           r.status AS rsvp,
           CASE WHEN r.status = 'waitlisted' THEN
             (SELECT count(*)::int + 1 FROM event_rsvps w
               WHERE w.occurrence_id = o.id AND w.status = 'waitlisted' AND w.seq < r.seq) END AS waitlist_position
      FROM event_occurrences o
      JOIN event_series s ON s.id = o.series_id
      ${viewerJoinSql(userId)}
      LEFT JOIN event_rsvps r ON r.occurrence_id = o.id AND r.user_id = ${userId}
     WHERE ${occurrenceSeenSql()} AND ${where}
     ${tail}`;
}

/** One occurrence as the viewer sees it, or null (not found, or not for them). */
export async function readOccurrence(
  db: Queryable,
  userId: string,
  occurrenceId: string,
): Promise<OccurrenceDto | null> {
  if (!isUuid(occurrenceId)) return null;
  const res = await db.execute<Row>(selectOccurrences(userId, sql`o.id = ${occurrenceId}`));
  return res.rows[0] ? rowsToDtos(res.rows)[0] : null;
}

/** GET /api/events/:occurrenceId */
export async function getOccurrence(ctx: AppContext, viewer: Viewer | null, occurrenceId: string) {
  const found = viewer ? await readOccurrence(ctx.db, viewer.id, occurrenceId) : null;
  if (!found) throw new AppError("NOT_FOUND", M.notFound);
  return found;
}

export type EventListQuery = {
  from?: string;
  to?: string;
  when?: "upcoming" | "past";
  cursor?: string;
  limit: number;
};

const encodeCursor = (r: { starts_at: string; id: string }) =>
  Buffer.from(JSON.stringify([r.starts_at, r.id])).toString("base64url");

function decodeCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [unknown, unknown];
    if (typeof at === "string" && typeof id === "string" && isUuid(id) && !Number.isNaN(Date.parse(at)))
      return { at: new Date(at).toISOString(), id };
  } catch {
    // answered below
  }
  throw fieldError("Invalid cursor", "cursor");
}

/** GET /api/communities/:id/events: a range (the month view) or a page of upcoming or past events. */
export async function listOccurrences(
  ctx: AppContext,
  viewer: Viewer | null,
  idOrSlug: string,
  query: EventListQuery,
): Promise<{ items: OccurrenceDto[]; next_cursor: string | null }> {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer?.id });
  // The calendar is what membership gives: a visitor or non-member sees no event.
  if (!viewer || !role) return { items: [], next_cursor: null };
  if (!community.showCalendar && !can(role, "manage_events")) throw new AppError("NOT_FOUND", M.calendarOff);
  const now = Date.now();
  const inCommunity = sql`o.community_id = ${community.id}`;
  // An occurrence lasts at most durationMaxMinutes: a lower bound on starts_at keeps the index range tight.
  const longest = EVENT_LIMITS.durationMaxMinutes * 60_000;

  if (query.from || query.to) {
    if (!query.from) throw fieldError("Choose the start of the range", "from");
    if (!query.to) throw fieldError("Choose the end of the range", "to");
    const from = Date.parse(query.from);
    const to = Date.parse(query.to);
    if (!(to > from)) throw fieldError("The range must end after it starts", "to");
    if (to - from > EVENT_LIMITS.rangeMaxDays * 86_400_000)
      throw fieldError(`Ask for at most ${EVENT_LIMITS.rangeMaxDays} days at once`, "to");
    const res = await ctx.db.execute<Row>(
      selectOccurrences(
        viewer.id,
        sql`${inCommunity} AND o.starts_at < ${new Date(to).toISOString()}::timestamptz
            AND o.starts_at > ${new Date(from - longest).toISOString()}::timestamptz
            AND o.ends_at > ${new Date(from).toISOString()}::timestamptz`,
        sql`ORDER BY o.starts_at, o.id`,
      ),
    );
    return { items: rowsToDtos(res.rows, now), next_cursor: null };
  }

  const past = query.when === "past";
  const nowIso = new Date(now).toISOString();
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const keyset = after
    ? past
      ? sql`AND (o.starts_at, o.id) < (${after.at}::timestamptz, ${after.id}::uuid)`
      : sql`AND (o.starts_at, o.id) > (${after.at}::timestamptz, ${after.id}::uuid)`
    : sql``;
  const where = past
    ? sql`${inCommunity} AND o.status = 'scheduled' AND o.ends_at <= ${nowIso}::timestamptz
          AND o.starts_at <= ${nowIso}::timestamptz ${keyset}`
    : sql`${inCommunity} AND o.status = 'scheduled' AND o.ends_at > ${nowIso}::timestamptz
          AND o.starts_at > ${new Date(now - longest).toISOString()}::timestamptz ${keyset}`;
  const order = past ? sql`ORDER BY o.starts_at DESC, o.id DESC` : sql`ORDER BY o.starts_at, o.id`;
  const res = await ctx.db.execute<Row>(selectOccurrences(viewer.id, where, sql`${order} LIMIT ${query.limit + 1}`));
  const items = rowsToDtos(res.rows.slice(0, query.limit), now);
  const last = items[items.length - 1];
  return { items, next_cursor: res.rows.length > query.limit && last ? encodeCursor(last) : null };
}
