import { eq, sql } from "drizzle-orm";
import { CALENDAR_MESSAGES as M, type EditScope, type Recurrence } from "#shared/calendar";
import type { CreateEventInput, OccurrenceDto, UpdateEventInput } from "#shared/calendar.schemas";
import type { AppContext, Viewer } from "#server/context";
import type { Tx } from "#server/db/client";
import { eventOccurrences, eventSeries } from "#server/db/schema/index";
import { AppError } from "#server/lib/errors";
import { isUuid, requireCommunity, requirePermission } from "#server/lib/community-access";
import { mayManageSql, occurrenceSeenSql, viewerJoinSql } from "./event-access";
import { notifyEventCancelled, notifyEventChanged, notifyEventCreated } from "./event-notifications";
import { readOccurrence } from "./events.read";
import {
  COPIED_COLUMNS,
  generateOccurrences,
  horizon,
  insertSlots,
  loadSeries,
  localDate,
  ruleOf,
  type SeriesRow,
} from "./occurrences";
import {
  checkRule,
  dayBefore,
  expandSeries,
  fieldError,
  instantToWallClock,
  nextSlot,
  zonedWallClockToInstant,
} from "./recurrence";
import { promoteWaitlist } from "./rsvp";

/*
 * Creating, editing and cancelling events (issue 19). Every write is one transaction that first
 * locks the series row, so two edits of one series run one after the other.
 *
 * Scopes of an edit of occurrence X:
 * - 'one': X alone; it becomes `overridden` (later edits of the series leave it be). A time change
 *   moves its starts_at/ends_at and keeps its slot_at (its identity in the rule).
 * - 'all': the series and every occurrence not edited alone and not yet ended (X too). A change of
 *   the start, the zone or the rule reshapes the occurrences that have not started (see reshape).
 * - 'following': the series is split. The old series now ends the day before X (its rule gets an
 *   end date) and a new series starts at X with the changes; X and the later occurrences move to
 *   it (see reshape), keeping their ids and so their RSVPs where their date still exists. When X is
 *   the series' first occurrence, or the event is not recurring, 'following' is 'all'.
 * Past occurrences never change, except their recording link (which belongs to the occurrence
 * named, whatever the scope).
 */

type Fields = Partial<{
  title: string;
  description: string;
  starts_at_local: string;
  time_zone: string;
  duration_minutes: number;
  location_kind: "online" | "place";
  meeting_url: string | null;
  place: string | null;
  cover_url: string | null;
  audience: "members" | "tiers" | "admins";
  tier_ids: string[];
  capacity: number | null;
}>;

/** What an edit may send besides the rule: the start, and every field an occurrence copies. */
const EVENT_FIELDS = ["starts_at_local", ...COPIED_COLUMNS] as const;

/** The location and audience after a change, checked whole (the schema checks only what was sent). */
async function checkMerged(
  tx: Tx,
  communityId: string,
  current: {
    location_kind: string;
    meeting_url: string | null;
    place: string | null;
    audience: string;
    tier_ids: string[];
  },
  input: Fields,
) {
  const kind = input.location_kind ?? current.location_kind;
  let meetingUrl = input.meeting_url !== undefined ? input.meeting_url : current.meeting_url;
  let place = input.place !== undefined ? input.place : current.place;
  if (kind === "online") {
    if (!meetingUrl) throw fieldError(M.meetingUrlRequired, "meeting_url");
    place = null;
  } else {
    if (!place?.trim()) throw fieldError(M.placeRequired, "place");
    meetingUrl = null;
  }
  const audience = input.audience ?? current.audience;
  let tierIds = [...new Set(input.tier_ids ?? current.tier_ids ?? [])];
  if (audience === "tiers") {
    if (tierIds.length === 0) throw fieldError(M.tiersRequired, "tier_ids");
    const found = await tx.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM community_tiers
       WHERE community_id = ${communityId} AND archived_at IS NULL AND id = ANY(${sql.param(tierIds)}::uuid[])`);
    if (found.rows[0].n !== tierIds.length) throw fieldError("Unknown tier", "tier_ids");
  } else tierIds = [];
  return { meetingUrl, place, tierIds };
}

const seriesFields = (
  input: Fields,
  merged: { meetingUrl: string | null; place: string | null; tierIds: string[] },
) => ({
  ...(input.title !== undefined && { title: input.title }),
  ...(input.description !== undefined && { description: input.description }),
  ...(input.time_zone !== undefined && { timeZone: input.time_zone }),
  ...(input.duration_minutes !== undefined && { durationMinutes: input.duration_minutes }),
  ...(input.location_kind !== undefined && { locationKind: input.location_kind }),
  ...(input.cover_url !== undefined && { coverUrl: input.cover_url }),
  ...(input.audience !== undefined && { audience: input.audience }),
  ...(input.capacity !== undefined && { capacity: input.capacity }),
  meetingUrl: merged.meetingUrl,
  place: merged.place,
  tierIds: merged.tierIds,
});

// ---------------------------------------------------------------------------------------------
// Create

/** POST /api/communities/:id/events: the series and its occurrences up to the horizon. */
export async function createEvent(
  ctx: AppContext,
  viewer: Viewer,
  idOrSlug: string,
  input: CreateEventInput,
): Promise<OccurrenceDto> {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(role, "manage_events", M.forbidden);
  const rule = { startsLocal: input.starts_at_local, timeZone: input.time_zone, recurrence: input.recurrence };
  checkRule(rule);
  const firstId = await ctx.db.transaction(async (tx) => {
    const merged = await checkMerged(
      tx,
      community.id,
      { location_kind: input.location_kind, meeting_url: null, place: null, audience: "members", tier_ids: [] },
      input,
    );
    const [series] = await tx
      .insert(eventSeries)
      .values({
        communityId: community.id,
        createdBy: viewer.id,
        title: input.title,
        description: input.description,
        timeZone: input.time_zone,
        durationMinutes: input.duration_minutes,
        locationKind: input.location_kind,
        coverUrl: input.cover_url,
        audience: input.audience,
        capacity: input.capacity,
        meetingUrl: merged.meetingUrl,
        place: merged.place,
        tierIds: merged.tierIds,
        startsLocal: input.starts_at_local,
        recurrence: input.recurrence,
      })
      .returning({ id: eventSeries.id });
    const row = (await loadSeries(tx, series.id))!;
    await generateOccurrences(tx, row);
    await notifyEventCreated(tx, series.id);
    return firstOccurrence(tx, series.id);
  });
  if (!firstId) throw fieldError(M.untilBeforeStart, "recurrence.until");
  return (await readOccurrence(ctx.db, viewer.id, firstId))!;
}

/** The series' next occurrence not yet ended (else its last): what an edit answers with. */
async function firstOccurrence(tx: Tx, seriesId: string): Promise<string | null> {
  const res = await tx.execute<{ id: string }>(sql`
    SELECT id FROM event_occurrences WHERE series_id = ${seriesId}
     ORDER BY (ends_at <= now()), CASE WHEN ends_at > now() THEN starts_at END, starts_at DESC LIMIT 1`);
  return res.rows[0]?.id ?? null;
}

// ---------------------------------------------------------------------------------------------
// The occurrence an edit or a cancel names

type Target = {
  id: string;
  series_id: string;
  community_id: string;
  slot_at: string | Date;
  starts_at: string | Date;
  ends_at: string | Date;
  status: "scheduled" | "cancelled";
  overridden: boolean;
  going_count: number;
  capacity: number | null;
  time_zone: string;
  duration_minutes: number;
  location_kind: string;
  meeting_url: string | null;
  place: string | null;
  audience: string;
  tier_ids: string[];
  may_manage: boolean;
};

async function readTarget(tx: Tx, userId: string, occurrenceId: string): Promise<Target | null> {
  const res = await tx.execute<Target>(sql`
    SELECT o.id, o.series_id, o.community_id, o.slot_at, o.starts_at, o.ends_at, o.status, o.overridden,
           o.going_count, o.capacity, o.time_zone, o.duration_minutes, o.location_kind, o.meeting_url,
           o.place, o.audience, o.tier_ids::text[] AS tier_ids, ${mayManageSql()} AS may_manage
      FROM event_occurrences o ${viewerJoinSql(userId)}
     WHERE o.id = ${occurrenceId} AND ${occurrenceSeenSql()}`);
  return res.rows[0] ?? null;
}

/**
 * The occurrence named, seen by the viewer (404 otherwise, as for one that does not exist) and
 * managed by them (403), with its series locked for the rest of the transaction.
 */
async function lockTarget(tx: Tx, viewer: Viewer, occurrenceId: string): Promise<{ o: Target; series: SeriesRow }> {
  const seen = isUuid(occurrenceId) ? await readTarget(tx, viewer.id, occurrenceId) : null;
  if (!seen) throw new AppError("NOT_FOUND", M.notFound);
  if (!seen.may_manage) throw new AppError("FORBIDDEN", M.forbidden);
  const series = await loadSeries(tx, seen.series_id, true);
  const o = series ? await readTarget(tx, viewer.id, occurrenceId) : null;
  if (!series || !o) throw new AppError("NOT_FOUND", M.notFound);
  return { o, series };
}

const ms = (v: string | Date) => new Date(v).getTime();
const STARTED = "This event has started: its start can no longer move";

/** Whether the series has an occurrence before this slot (else 'following' is 'all'). */
async function hasEarlier(tx: Tx, seriesId: string, slotAt: string | Date) {
  const res = await tx.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM event_occurrences
     WHERE series_id = ${seriesId} AND slot_at < ${new Date(slotAt).toISOString()}::timestamptz`);
  return res.rows[0].n > 0;
}

/** The highest going count among the occurrences a capacity change reaches. */
async function maxGoing(tx: Tx, where: ReturnType<typeof sql>) {
  const res = await tx.execute<{ n: number }>(
    sql`SELECT coalesce(max(going_count), 0)::int AS n FROM event_occurrences o WHERE ${where}`,
  );
  return res.rows[0].n;
}

// ---------------------------------------------------------------------------------------------
// Reshape: occurrences after a change of the rule, the start or the zone

type OldRow = {
  id: string;
  slot_at: string | Date;
  time_zone: string;
  overridden: boolean;
  status: string;
  has_rsvps: boolean;
};

/**
 * Fits existing occurrences (`oldRows`) to the series `target`'s rule from `from` on. Each old
 * occurrence is matched to the new slot on its local date: matched, it moves to that slot (an
 * occurrence edited alone keeps its own time and fields) and keeps its id, so its RSVPs stay.
 * Unmatched, it is deleted, unless someone answered it: then it stays, cancelled, so they are told.
 * New slots with no match become new occurrences. A date that already holds another occurrence of
 * the target (one edited alone, or past) keeps just that one.
 */
async function reshape(tx: Tx, target: SeriesRow, oldRows: OldRow[], from: Date) {
  const rule = ruleOf(target);
  const first = nextSlot(rule, from);
  const until = new Date(Math.max(horizon().getTime(), first ? first.getTime() + 1 : 0));
  const slots = expandSeries(rule, from, until);
  const byDate = new Map(slots.map((s) => [localDate(s, target.time_zone), s]));
  const oldIds = oldRows.map((r) => r.id);
  const others = await tx.execute<{ slot_at: string; time_zone: string }>(sql`
    SELECT slot_at, time_zone FROM event_occurrences
     WHERE series_id = ${target.id} AND slot_at >= ${new Date(from.getTime() - 2 * 86_400_000).toISOString()}::timestamptz
       AND NOT (id = ANY(${sql.param(oldIds)}::uuid[]))`);
  for (const r of others.rows) byDate.delete(localDate(r.slot_at, r.time_zone));

  const plain: { id: string; slot: Date }[] = [];
  const alone: { id: string; slot: Date }[] = [];
  const cancelIds: string[] = [];
  const deleteIds: string[] = [];
  // A one-off event is one occurrence whatever its date: moving it keeps it (and its RSVPs).
  const single = !target.recurrence && oldRows.length === 1 && slots.length === 1 && others.rows.length === 0;
  for (const r of oldRows) {
    const date = single ? localDate(slots[0], target.time_zone) : localDate(r.slot_at, r.time_zone);
    const slot = byDate.get(date);
    if (slot) {
      byDate.delete(date);
      (r.overridden ? alone : plain).push({ id: r.id, slot });
    } else if (r.has_rsvps) {
      if (r.status === "scheduled") cancelIds.push(r.id);
    } else deleteIds.push(r.id);
  }
  if (deleteIds.length)
    await tx.execute(sql`DELETE FROM event_occurrences WHERE id = ANY(${sql.param(deleteIds)}::uuid[])`);
  if (cancelIds.length)
    await tx.execute(sql`
      UPDATE event_occurrences SET status = 'cancelled', updated_at = now() WHERE id = ANY(${sql.param(cancelIds)}::uuid[])`);
  const ids = (xs: { id: string }[]) => sql.param(xs.map((x) => x.id));
  const times = (xs: { slot: Date }[]) => sql.param(xs.map((x) => x.slot.toISOString()));
  if (plain.length)
    await tx.execute(sql`
      UPDATE event_occurrences o
         SET series_id = s.id, slot_at = x.slot, starts_at = x.slot,
             ends_at = x.slot + make_interval(mins => s.duration_minutes),
             ${sql.raw(COPIED_COLUMNS.map((c) => `${c} = s.${c}`).join(", "))}, updated_at = now()
        FROM unnest(${ids(plain)}::uuid[], ${times(plain)}::timestamptz[]) AS x(id, slot), event_series s
       WHERE o.id = x.id AND s.id = ${target.id}`);
  if (alone.length)
    await tx.execute(sql`
      UPDATE event_occurrences o SET series_id = ${target.id}, slot_at = x.slot, updated_at = now()
        FROM unnest(${ids(alone)}::uuid[], ${times(alone)}::timestamptz[]) AS x(id, slot)
       WHERE o.id = x.id`);
  const inserted = await insertSlots(tx, target.id, [...byDate.values()]);
  const more = target.recurrence ? nextSlot(rule, until) : null;
  await tx.execute(sql`
    UPDATE event_series SET generated_until = ${more ? until.toISOString() : null}::timestamptz WHERE id = ${target.id}`);
  return { changed: [...plain, ...alone].map((x) => x.id), cancelled: cancelIds, inserted };
}

async function oldRowsWhere(tx: Tx, where: ReturnType<typeof sql>): Promise<OldRow[]> {
  const res = await tx.execute<OldRow>(sql`
    SELECT o.id, o.slot_at, o.time_zone, o.overridden, o.status,
           EXISTS (SELECT 1 FROM event_rsvps r WHERE r.occurrence_id = o.id) AS has_rsvps
      FROM event_occurrences o WHERE ${where} ORDER BY o.slot_at`);
  return res.rows;
}

// ---------------------------------------------------------------------------------------------
// Update

/** PATCH /api/events/:occurrenceId */
export async function updateEvent(
  ctx: AppContext,
  viewer: Viewer,
  occurrenceId: string,
  input: UpdateEventInput,
): Promise<OccurrenceDto> {
  const { scope, recording_url: recordingUrl, recurrence, ...rest } = input;
  const fields = rest as Fields;
  const sent = EVENT_FIELDS.filter((k) => fields[k] !== undefined);
  const answerId = await ctx.db.transaction(async (tx) => {
    const { o, series } = await lockTarget(tx, viewer, occurrenceId);
    const now = Date.now();
    // An ended occurrence keeps what it was; from it, only a recurring series' 'all' edit reaches
    // the occurrences to come.
    const ended = ms(o.ends_at) <= now;
    if (ended && (sent.length > 0 || recurrence !== undefined) && !(scope === "all" && series.recurrence))
      throw fieldError(M.ended, sent[0] ?? "recurrence");
    if (recordingUrl !== undefined)
      await tx
        .update(eventOccurrences)
        .set({ recordingUrl, updatedAt: new Date() })
        .where(eq(eventOccurrences.id, o.id));
    if (sent.length === 0 && recurrence === undefined) return o.id;

    // A one-off event has one occurrence: every scope edits the event (and its series row).
    let effective: EditScope = series.recurrence ? scope : "all";
    if (effective === "following" && (!series.recurrence || !(await hasEarlier(tx, series.id, o.slot_at))))
      effective = "all";
    if (effective === "one") {
      if (recurrence !== undefined) throw fieldError(M.scopeRequired, "scope");
      await updateOne(tx, viewer, o, fields, now);
      return o.id;
    }
    if (effective === "all") return updateAll(tx, viewer, o, series, fields, recurrence, now);
    return updateFollowing(tx, viewer, o, series, fields, recurrence, now);
  });
  return (await readOccurrence(ctx.db, viewer.id, answerId))!;
}

async function updateOne(tx: Tx, viewer: Viewer, o: Target, fields: Fields, now: number) {
  const merged = await checkMerged(tx, o.community_id, o, fields);
  if (fields.capacity != null && fields.capacity < o.going_count)
    throw fieldError(M.capacityBelowGoing(o.going_count), "capacity");
  const patch: Partial<typeof eventOccurrences.$inferInsert> = {
    ...seriesFields(fields, merged),
    overridden: true,
    updatedAt: new Date(),
  };
  if (fields.starts_at_local !== undefined || fields.time_zone !== undefined || fields.duration_minutes !== undefined) {
    const zone = fields.time_zone ?? o.time_zone;
    const local = fields.starts_at_local ?? instantToWallClock(new Date(o.starts_at), o.time_zone);
    const start =
      fields.starts_at_local !== undefined || fields.time_zone !== undefined
        ? zonedWallClockToInstant(local, zone)
        : new Date(o.starts_at);
    if (ms(o.starts_at) <= now && start.getTime() !== ms(o.starts_at)) throw fieldError(STARTED, "starts_at_local");
    patch.startsAt = start;
    patch.endsAt = new Date(start.getTime() + (fields.duration_minutes ?? o.duration_minutes) * 60_000);
  }
  await tx.update(eventOccurrences).set(patch).where(eq(eventOccurrences.id, o.id));
  if (
    fields.capacity !== undefined &&
    (fields.capacity === null || (o.capacity != null && fields.capacity > o.capacity))
  )
    await promoteWaitlist(tx, o.id);
  await notifyEventChanged(tx, [o.id], viewer.id);
}

/** Series columns (camelCase) from a merged change, for the series row. */
function seriesPatch(fields: Fields, merged: Awaited<ReturnType<typeof checkMerged>>, recurrence?: Recurrence | null) {
  return {
    ...seriesFields(fields, merged),
    ...(fields.starts_at_local !== undefined && { startsLocal: fields.starts_at_local }),
    ...(recurrence !== undefined && { recurrence }),
    updatedAt: new Date(),
  };
}

/** The series as stored, and its location and audience after the change, checked whole. */
async function seriesAfter(tx: Tx, o: Target, series: SeriesRow, fields: Fields) {
  const current = (await tx.select().from(eventSeries).where(eq(eventSeries.id, series.id)))[0];
  const merged = await checkMerged(
    tx,
    o.community_id,
    {
      location_kind: current.locationKind,
      meeting_url: current.meetingUrl,
      place: current.place,
      audience: current.audience,
      tier_ids: current.tierIds,
    },
    fields,
  );
  return { current, merged };
}

async function updateAll(
  tx: Tx,
  viewer: Viewer,
  o: Target,
  series: SeriesRow,
  fields: Fields,
  recurrence: Recurrence | null | undefined,
  now: number,
): Promise<string> {
  const { merged } = await seriesAfter(tx, o, series, fields);
  const next: SeriesRow = {
    ...series,
    starts_local: fields.starts_at_local ?? series.starts_local,
    time_zone: fields.time_zone ?? series.time_zone,
    duration_minutes: fields.duration_minutes ?? series.duration_minutes,
    recurrence: recurrence !== undefined ? recurrence : series.recurrence,
  };
  const ruleChanged =
    next.starts_local !== series.starts_local ||
    next.time_zone !== series.time_zone ||
    JSON.stringify(next.recurrence) !== JSON.stringify(series.recurrence);
  if (ruleChanged) checkRule(ruleOf(next));
  if (ruleChanged && !series.recurrence && ms(o.starts_at) <= now) throw fieldError(STARTED, "starts_at_local");
  const nowIso = new Date(now).toISOString();
  const reached = sql`o.series_id = ${series.id} AND (NOT o.overridden OR o.id = ${o.id}) AND o.ends_at > ${nowIso}::timestamptz`;
  if (fields.capacity != null) {
    const going = await maxGoing(tx, reached);
    if (fields.capacity < going) throw fieldError(M.capacityBelowGoing(going), "capacity");
  }
  await tx
    .update(eventSeries)
    .set(seriesPatch(fields, merged, recurrence))
    .where(eq(eventSeries.id, series.id));

  // The fields, onto every occurrence reached (a live one too: a fixed link matters most then).
  const before = await tx.execute<{ id: string; capacity: number | null }>(
    sql`SELECT o.id, o.capacity FROM event_occurrences o WHERE ${reached}`,
  );
  const copied = await tx.execute<{ id: string }>(sql`
    UPDATE event_occurrences o
       SET ${sql.raw(COPIED_COLUMNS.map((c) => `${c} = s.${c}`).join(", "))},
           ends_at = o.starts_at + make_interval(mins => s.duration_minutes), updated_at = now()
      FROM event_series s
     WHERE s.id = o.series_id AND ${reached}
    RETURNING o.id`);
  let changed = copied.rows.map((r) => r.id);
  let cancelled: string[] = [];
  if (ruleChanged) {
    // Occurrences not yet started follow the new rule; those edited alone keep their own time.
    const oldRows = await oldRowsWhere(
      tx,
      sql`o.series_id = ${series.id} AND NOT o.overridden AND o.starts_at > ${nowIso}::timestamptz`,
    );
    const fresh = (await loadSeries(tx, series.id))!;
    const r = await reshape(tx, fresh, oldRows, new Date(now));
    cancelled = r.cancelled;
    const gone = new Set([...oldRows.map((x) => x.id)].filter((id) => !r.changed.includes(id)));
    changed = changed.filter((id) => !gone.has(id));
  }
  if (fields.capacity !== undefined)
    for (const row of before.rows)
      if (fields.capacity === null || (row.capacity != null && fields.capacity > row.capacity))
        await promoteWaitlist(tx, row.id);
  if (changed.length) await notifyEventChanged(tx, changed, viewer.id);
  if (cancelled.length) await notifyEventCancelled(tx, cancelled, viewer.id);
  const still = await tx.execute<{ id: string }>(
    sql`SELECT id FROM event_occurrences WHERE id = ${o.id} AND status = 'scheduled'`,
  );
  return still.rows[0]?.id ?? (await firstOccurrence(tx, series.id)) ?? o.id;
}

async function updateFollowing(
  tx: Tx,
  viewer: Viewer,
  o: Target,
  series: SeriesRow,
  fields: Fields,
  recurrence: Recurrence | null | undefined,
  now: number,
): Promise<string> {
  const { current, merged } = await seriesAfter(tx, o, series, fields);
  const slotDate = localDate(o.slot_at, series.time_zone);
  // The old rule's remaining count goes with the new series when it ends 'after' N times.
  let rule = recurrence !== undefined ? recurrence : series.recurrence;
  if (recurrence === undefined && rule?.end === "after" && rule.count) {
    const before = expandSeries(ruleOf(series), new Date(0), new Date(o.slot_at)).length;
    rule = { ...rule, count: Math.max(1, rule.count - before) };
  }
  const startsLocal = fields.starts_at_local ?? instantToWallClock(new Date(o.slot_at), series.time_zone);
  const zone = fields.time_zone ?? series.time_zone;
  checkRule({ startsLocal, timeZone: zone, recurrence: rule });
  const nowIso = new Date(now).toISOString();
  const moving = sql`o.series_id = ${series.id} AND o.slot_at >= ${new Date(o.slot_at).toISOString()}::timestamptz`;
  if (fields.capacity != null) {
    const going = await maxGoing(tx, sql`${moving} AND o.ends_at > ${nowIso}::timestamptz`);
    if (fields.capacity < going) throw fieldError(M.capacityBelowGoing(going), "capacity");
  }
  const oldRows = await oldRowsWhere(tx, moving);
  const [created] = await tx
    .insert(eventSeries)
    .values({
      communityId: current.communityId,
      createdBy: viewer.id,
      title: current.title,
      description: current.description,
      timeZone: current.timeZone,
      durationMinutes: current.durationMinutes,
      locationKind: current.locationKind,
      coverUrl: current.coverUrl,
      audience: current.audience,
      capacity: current.capacity,
      ...seriesPatch(fields, merged),
      startsLocal,
      recurrence: rule,
    })
    .returning({ id: eventSeries.id });
  // The old series ends the day before this occurrence.
  const ended: Recurrence = { ...series.recurrence!, end: "on_date", until: dayBefore(slotDate), count: null };
  await tx
    .update(eventSeries)
    .set({ recurrence: ended, generatedUntil: null, updatedAt: new Date() })
    .where(eq(eventSeries.id, series.id));
  const target = (await loadSeries(tx, created.id))!;
  const r = await reshape(tx, target, oldRows, new Date(0));
  const capacities = new Map(oldRows.map((x) => [x.id, x]));
  if (fields.capacity !== undefined) for (const id of r.changed) if (capacities.has(id)) await promoteWaitlist(tx, id);
  if (r.changed.length) await notifyEventChanged(tx, r.changed, viewer.id);
  if (r.cancelled.length) await notifyEventCancelled(tx, r.cancelled, viewer.id);
  // A split is no new event: those going to the moved occurrences are told they changed.
  return r.changed.includes(o.id) ? o.id : ((await firstOccurrence(tx, created.id)) ?? o.id);
}

// ---------------------------------------------------------------------------------------------
// Cancel

/** POST /api/events/:occurrenceId/cancel: this one, this and the following, or every one not yet ended. */
export async function cancelEvent(
  ctx: AppContext,
  viewer: Viewer,
  occurrenceId: string,
  scope: EditScope,
): Promise<OccurrenceDto> {
  await ctx.db.transaction(async (tx) => {
    const { o, series } = await lockTarget(tx, viewer, occurrenceId);
    const nowIso = new Date().toISOString();
    if (ms(o.ends_at) <= Date.now()) throw fieldError(M.ended, "scope");
    let effective = scope;
    if (effective === "following" && (!series.recurrence || !(await hasEarlier(tx, series.id, o.slot_at))))
      effective = "all";
    let where;
    if (effective === "one") where = sql`o.id = ${o.id}`;
    else if (effective === "following") {
      where = sql`o.series_id = ${series.id} AND o.slot_at >= ${new Date(o.slot_at).toISOString()}::timestamptz`;
      // No more occurrences are made after it: the rule ends the day before.
      const until = dayBefore(localDate(o.slot_at, series.time_zone));
      await tx
        .update(eventSeries)
        .set({ recurrence: { ...series.recurrence!, end: "on_date", until, count: null }, generatedUntil: null })
        .where(eq(eventSeries.id, series.id));
    } else {
      where = sql`o.series_id = ${series.id}`;
      if (series.recurrence) {
        // The rule ends with the last occurrence made; none are made after it.
        const last = await tx.execute<{ slot_at: string }>(
          sql`SELECT max(slot_at) AS slot_at FROM event_occurrences WHERE series_id = ${series.id}`,
        );
        const until = localDate(last.rows[0].slot_at, series.time_zone);
        await tx
          .update(eventSeries)
          .set({ recurrence: { ...series.recurrence, end: "on_date", until, count: null }, generatedUntil: null })
          .where(eq(eventSeries.id, series.id));
      }
    }
    const res = await tx.execute<{ id: string }>(sql`
      UPDATE event_occurrences o SET status = 'cancelled', updated_at = now()
       WHERE ${where} AND o.status = 'scheduled' AND o.ends_at > ${nowIso}::timestamptz
      RETURNING o.id`);
    if (res.rows.length)
      await notifyEventCancelled(
        tx,
        res.rows.map((r) => r.id),
        viewer.id,
      );
  });
  return (await readOccurrence(ctx.db, viewer.id, occurrenceId))!;
}
