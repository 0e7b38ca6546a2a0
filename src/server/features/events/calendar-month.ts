import { sql } from "drizzle-orm";
import { CALENDAR_MESSAGES as M, EVENT_LIMITS } from "#shared/calendar";
import { can } from "#shared/roles";
import type { AppContext, Viewer } from "#server/context";
import { requireCommunity } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { occurrenceSeenSql, viewerJoinSql } from "./event-access";
import { fieldError } from "./recurrence";

/*
 * The month grid (issue 19): every occurrence overlapping a range of at most 45 days, in the shape a
 * day cell needs. What a member sees of a community's calendar depends only on whether they manage
 * events (event-access.ts: members see all but 'admins' events, while the calendar is shown), so the
 * answer is built once per community, range and kind of viewer, as JSON by PostgreSQL, and kept in
 * ctx.calendarCache until the database announces a change to the community's occurrences
 * (migration 0020) or a minute passes. RSVP counters are not part of it.
 */

const EMPTY = '{"items":[]}';

/** The JSON of the month grid for the viewer; a visitor or non-member of a public community gets none. */
export async function calendarMonth(
  ctx: AppContext,
  viewer: Viewer | null,
  idOrSlug: string,
  range: { from: string; to: string },
): Promise<string> {
  const from = Date.parse(range.from);
  const to = Date.parse(range.to);
  if (!(to > from)) throw fieldError("The range must end after it starts", "to");
  if (to - from > EVENT_LIMITS.rangeMaxDays * 86_400_000)
    throw fieldError(`Ask for at most ${EVENT_LIMITS.rangeMaxDays} days at once`, "to");
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer?.id });
  // The calendar is what membership gives: a visitor or non-member sees no event.
  if (!viewer || !role) return EMPTY;
  const manages = can(role, "manage_events");
  if (!community.showCalendar && !manages) throw new AppError("NOT_FOUND", M.calendarOff);
  const fromIso = new Date(from).toISOString();
  const toIso = new Date(to).toISOString();
  const key = `${community.id}:month:${fromIso}:${toIso}:${manages ? "manage" : "member"}`;
  return ctx.calendarCache.getOrCompute(key, async () => {
    // An occurrence lasts at most durationMaxMinutes: a lower bound on starts_at keeps the index range tight.
    const earliest = new Date(from - EVENT_LIMITS.durationMaxMinutes * 60_000).toISOString();
    const iso = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
    const res = await ctx.db.execute<{ body: string }>(sql`
      SELECT json_build_object('items', coalesce(json_agg(json_build_object(
               'id', o.id, 'series_id', o.series_id, 'title', o.title,
               'starts_at', ${iso("o.starts_at")}, 'ends_at', ${iso("o.ends_at")}, 'status', o.status)
             ORDER BY o.starts_at, o.id), '[]'::json))::text AS body
        FROM event_occurrences o ${viewerJoinSql(viewer.id)}
       WHERE o.community_id = ${community.id} AND ${occurrenceSeenSql()}
         AND o.starts_at < ${toIso}::timestamptz AND o.starts_at > ${earliest}::timestamptz
         AND o.ends_at > ${fromIso}::timestamptz`);
    return res.rows[0]?.body ?? EMPTY;
  });
}
