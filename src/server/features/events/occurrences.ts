import { sql } from "drizzle-orm";
import { EVENT_LIMITS, type Recurrence } from "#shared/calendar";
import type { AppContext } from "#server/context";
import type { Queryable } from "#server/db/client";
import { daily, type JobHandler } from "#server/lib/jobs";
import { expandSeries, instantToWallClock, nextSlot, type SeriesRule } from "./recurrence";

/*
 * Occurrence rows of a series (issue 19). A series' occurrences exist as rows up to a horizon
 * (EVENT_LIMITS.horizonDays ahead); series.generated_until says how far, null once every occurrence
 * of the rule exists. Inserting is idempotent: (series_id, slot_at) is unique and taken slots are
 * left alone, so a cancelled or moved occurrence is never made again. A daily job moves the horizon.
 */

export const HORIZON_QUEUE = "events.horizon";
const DAY = 86_400_000;
/** The job extends series whose rows end within this many days. */
const EXTEND_WITHIN_DAYS = 30;
/** Series extended per job run (the next run takes the rest). */
const EXTEND_BATCH = 500;

/** The fields an occurrence copies from its series, as SQL column lists. */
export const COPIED_COLUMNS = [
  "title",
  "description",
  "time_zone",
  "duration_minutes",
  "location_kind",
  "meeting_url",
  "place",
  "cover_url",
  "audience",
  "tier_ids",
  "capacity",
] as const;
const COPIED = COPIED_COLUMNS.join(", ");
const COPIED_FROM_S = COPIED_COLUMNS.map((c) => `s.${c}`).join(", ");

export type SeriesRow = {
  id: string;
  community_id: string;
  starts_local: string;
  time_zone: string;
  duration_minutes: number;
  recurrence: Recurrence | null;
  generated_until: Date | string | null;
};

export const ruleOf = (s: Pick<SeriesRow, "starts_local" | "time_zone" | "recurrence">): SeriesRule => ({
  startsLocal: s.starts_local,
  timeZone: s.time_zone,
  recurrence: s.recurrence,
});

export const horizon = (now = Date.now()) => new Date(now + EVENT_LIMITS.horizonDays * DAY);

export async function loadSeries(db: Queryable, seriesId: string, forUpdate = false): Promise<SeriesRow | null> {
  const res = await db.execute<SeriesRow>(sql`
    SELECT id, community_id, starts_local, time_zone, duration_minutes, recurrence, generated_until
      FROM event_series WHERE id = ${seriesId} ${forUpdate ? sql`FOR UPDATE` : sql``}`);
  return res.rows[0] ?? null;
}

/** Inserts occurrences of the series at these slots (copying its fields); taken slots are skipped. Returns the new ids. */
export async function insertSlots(db: Queryable, seriesId: string, slots: Date[]): Promise<string[]> {
  if (slots.length === 0) return [];
  const res = await db.execute<{ id: string }>(sql`
    INSERT INTO event_occurrences (series_id, community_id, slot_at, starts_at, ends_at, ${sql.raw(COPIED)})
    SELECT s.id, s.community_id, x.slot, x.slot, x.slot + make_interval(mins => s.duration_minutes), ${sql.raw(COPIED_FROM_S)}
      FROM event_series s, unnest(${sql.param(slots.map((d) => d.toISOString()))}::timestamptz[]) AS x(slot)
     WHERE s.id = ${seriesId}
    ON CONFLICT (series_id, slot_at) DO NOTHING
    RETURNING id`);
  return res.rows.map((r) => r.id);
}

/**
 * Generates the series' occurrences with from <= slot < the horizon and records how far they go
 * (null when the rule ends before the horizon). `from` defaults to the rule's start.
 */
export async function generateOccurrences(
  db: Queryable,
  series: SeriesRow,
  opts: { from?: Date; now?: number } = {},
): Promise<string[]> {
  const rule = ruleOf(series);
  const from = opts.from ?? new Date(0);
  // A series that starts beyond the horizon still gets its first occurrence (and a one-off its only one).
  const first = nextSlot(rule, from);
  const until = new Date(Math.max(horizon(opts.now).getTime(), first ? first.getTime() + 1 : 0));
  const slots = expandSeries(rule, from, until);
  const ids = await insertSlots(db, series.id, slots);
  const more = series.recurrence ? nextSlot(rule, until) : null;
  await db.execute(sql`
    UPDATE event_series SET generated_until = ${more ? until.toISOString() : null}::timestamptz WHERE id = ${series.id}`);
  return ids;
}

/** Extends every series whose rows end within EXTEND_WITHIN_DAYS; returns how many were extended. */
export async function extendHorizons(db: Queryable, now = Date.now()): Promise<number> {
  const due = await db.execute<SeriesRow>(sql`
    SELECT id, community_id, starts_local, time_zone, duration_minutes, recurrence, generated_until
      FROM event_series
     WHERE generated_until IS NOT NULL AND generated_until < ${new Date(now + (EVENT_LIMITS.horizonDays - EXTEND_WITHIN_DAYS) * DAY).toISOString()}::timestamptz
     ORDER BY generated_until LIMIT ${EXTEND_BATCH}`);
  for (const s of due.rows) {
    await generateOccurrences(db, s, { from: new Date(s.generated_until!), now });
  }
  return due.rows.length;
}

/** The local date ('YYYY-MM-DD') of an instant in a zone: how a slot is matched to the rule after a change. */
export const localDate = (at: Date | string, zone: string) => instantToWallClock(new Date(at), zone).slice(0, 10);

/** The horizon job, registered by app.ts: daily at 03:10 UTC, and kicked when a batch leaves more. */
export function eventJobHandlers(ctx: AppContext): Record<string, JobHandler> {
  ctx.worker.addSchedule({ name: "events-horizon", queue: HORIZON_QUEUE, ...daily("03:10") });
  return {
    [HORIZON_QUEUE]: async () => {
      // A batch that was full may have left more behind: run again until one is not.
      while ((await extendHorizons(ctx.db)) === EXTEND_BATCH);
    },
  };
}
