import { sql } from "drizzle-orm";
import { CALENDAR_MESSAGES as M, EVENT_LIMITS } from "#shared/calendar";
import { can } from "#shared/roles";
import type { AppContext, Viewer } from "#server/context";
import { requireCommunityCached } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { occurrenceSeenSql, viewerJoinSql } from "./event-access";
import { fieldError } from "./recurrence";

/*
 * The month grid (issue 19): the occurrences overlapping a range of at most 45 days, in the shape a
 * day cell needs: the soonest `per_day` of each day in the viewer's zone, and how many more each
 * day has ('+97 more'; a day asked for alone lists up to 200). What a member sees of a community's calendar depends only on whether they manage
 * events (event-access.ts: members see all but 'admins' events, while the calendar is shown), so the
 * answer is built once per community, range and kind of viewer, as JSON by PostgreSQL, and kept in
 * ctx.calendarCache until the database announces a change to the community's occurrences
 * (migration 0020) or a minute passes. RSVP counters are not part of it.
 */

const EMPTY = '{"items":[],"more":[]}';

/** The JSON of the month grid for the viewer; a visitor or non-member of a public community gets none. */
export async function calendarMonth(
  ctx: AppContext,
  viewer: Viewer | null,
  idOrSlug: string,
  range: { from: string; to: string; tz: string; per_day: number },
): Promise<string> {
  const from = Date.parse(range.from);
  const to = Date.parse(range.to);
  if (!(to > from)) throw fieldError("The range must end after it starts", "to");
  if (to - from > EVENT_LIMITS.rangeMaxDays * 86_400_000)
    throw fieldError(`Ask for at most ${EVENT_LIMITS.rangeMaxDays} days at once`, "to");
  const { community, role } = await requireCommunityCached(ctx, idOrSlug, viewer?.id);
  // The calendar is what membership gives: a visitor or non-member sees no event.
  if (!viewer || !role) return EMPTY;
  const manages = can(role, "manage_events");
  if (!community.showCalendar && !manages) throw new AppError("NOT_FOUND", M.calendarOff);
  const fromIso = new Date(from).toISOString();
  const toIso = new Date(to).toISOString();
  const { tz, per_day: perDay } = range;
  const key = `${community.id}:month:${fromIso}:${toIso}:${tz}:${perDay}:${manages ? "manage" : "member"}`;
  return ctx.calendarCache.getOrCompute(key, async () => {
    // An occurrence lasts at most durationMaxMinutes: a lower bound on starts_at keeps the index range tight.
    const earliest = new Date(from - EVENT_LIMITS.durationMaxMinutes * 60_000).toISOString();
    const iso = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
    // Each occurrence's day in the viewer's zone; the soonest `perDay` of each day are listed, the
    // rest counted.
    const res = await ctx.db.execute<{ body: string }>(sql`
      WITH seen AS (
        SELECT o.id, o.series_id, o.title, o.starts_at, o.ends_at, o.status,
               (o.starts_at AT TIME ZONE ${tz})::date AS day,
               row_number() OVER (PARTITION BY (o.starts_at AT TIME ZONE ${tz})::date ORDER BY o.starts_at, o.id) AS n
          FROM event_occurrences o ${viewerJoinSql(viewer.id)}
         WHERE o.community_id = ${community.id} AND ${occurrenceSeenSql()}
           AND o.starts_at < ${toIso}::timestamptz AND o.starts_at > ${earliest}::timestamptz
           AND o.ends_at > ${fromIso}::timestamptz)
      SELECT json_build_object(
               'items', coalesce((SELECT json_agg(json_build_object(
                          'id', s.id, 'series_id', s.series_id, 'title', s.title,
                          'starts_at', ${iso("s.starts_at")}, 'ends_at', ${iso("s.ends_at")}, 'status', s.status)
                        ORDER BY s.starts_at, s.id) FROM seen s WHERE s.n <= ${perDay}), '[]'::json),
               'more', coalesce((SELECT json_agg(json_build_object('day', to_char(m.day, 'YYYY-MM-DD'), 'count', m.left_out)
                        ORDER BY m.day)
                          FROM (SELECT day, count(*)::int - ${perDay}::int AS left_out FROM seen GROUP BY day
                                 HAVING count(*) > ${perDay}) m), '[]'::json))::text AS body`);
    return res.rows[0]?.body ?? EMPTY;
  });
}
