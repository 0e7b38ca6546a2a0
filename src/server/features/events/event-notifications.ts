import { sql } from "drizzle-orm";
import type { Queryable } from "#server/db/client";
import { notify } from "#server/lib/notifications";
import { userSeesSql } from "./event-access";

/*
 * Event notifications (issue 19). The event service calls these inside the transaction that changes
 * the events, after the change. Each makes its notifications through `notify` (lib/notifications):
 * one statement for all recipients of a series, honouring each person's settings and the
 * community's `events` switch (FLAG_OF_TYPE), announced live at commit and mailed in the digest.
 * Recipients are chosen with the event-access rule (userSeesSql), and `notify` checks it again
 * (mayReceive with the occurrence), as does every read of the notification afterwards: someone who
 * cannot see the event, or no longer does, is never told about it.
 *
 * - created: every member who sees the new event (for 'admins' events, the owner and admins),
 *   except its creator; one notification per series, linking to its first upcoming occurrence.
 * - changed: those going or waitlisted on a changed occurrence that has not ended.
 * - cancelled: those going or waitlisted; and when nothing of the series is left to come (a one-off
 *   event, a whole series or 'this and following' cancelled), every member who sees it.
 */

/** An occurrence's start as texts and emails show it: in the event's own zone, which is named. */
export function startText(startsAt: Date | string, timeZone: string): string {
  const at = new Date(startsAt);
  const format = (zone: string) =>
    `${new Intl.DateTimeFormat("en-US", {
      weekday: "short",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZone: zone,
    }).format(at)} (${zone})`;
  try {
    return format(timeZone);
  } catch {
    return format("UTC");
  }
}

/** The titles of event notifications (the bell, the digest). */
export const EVENT_NOTIFICATION_TITLES = {
  created: (title: string, byActor: boolean) => (byActor ? `{actor} scheduled ${title}` : `New event: ${title}`),
  changed: (title: string) => `Event changed: ${title}`,
  cancelled: (title: string) => `Cancelled: ${title}`,
} as const;

/** A new event (series or one-off) was published: tell the members who see it. */
export async function notifyEventCreated(db: Queryable, seriesId: string): Promise<void> {
  const res = await db.execute<{
    community_id: string;
    created_by: string | null;
    title: string;
    recurring: boolean;
    occurrence_id: string;
    starts_at: string;
    time_zone: string;
    recipients: string[];
  }>(sql`
    SELECT o.community_id, s.created_by, o.title, s.recurrence IS NOT NULL AS recurring,
           o.id AS occurrence_id, o.starts_at, o.time_zone,
           coalesce((SELECT array_agg(mm.user_id) FROM community_members mm
                      WHERE mm.community_id = o.community_id AND ${userSeesSql(sql`mm.user_id`)}), '{}') AS recipients
      FROM event_series s
      JOIN LATERAL (
        SELECT * FROM event_occurrences f
         WHERE f.series_id = s.id AND f.status = 'scheduled' AND f.ends_at > now()
         ORDER BY f.starts_at LIMIT 1) o ON true
     WHERE s.id = ${seriesId}`);
  const e = res.rows[0];
  if (!e || e.recipients.length === 0) return;
  await notify(db, {
    recipients: e.recipients,
    actorId: e.created_by,
    communityId: e.community_id,
    type: "event_new",
    title: EVENT_NOTIFICATION_TITLES.created(e.title, e.created_by !== null),
    body: e.recurring ? `${startText(e.starts_at, e.time_zone)}, then repeating` : startText(e.starts_at, e.time_zone),
    occurrenceId: e.occurrence_id,
    data: { community_id: e.community_id },
  });
}

type Affected = {
  series_id: string;
  occurrence_id: string;
  community_id: string;
  title: string;
  starts_at: string;
  time_zone: string;
  count: number;
  /** Nothing of the series is left to come. */
  series_over: boolean;
  recipients: string[];
};

/**
 * The occurrences among `ids` that have not ended, one row per series (its earliest such one), with
 * who to tell: those going or waitlisted on any of them who see it, and when `everyoneIfOver` and the
 * series has no scheduled occurrence left to come, every member who sees it.
 */
async function affectedSeries(db: Queryable, ids: string[], everyoneIfOver: boolean): Promise<Affected[]> {
  const res = await db.execute<Affected>(sql`
    WITH a AS (
      SELECT o.id, o.series_id, o.community_id, o.title, o.starts_at, o.time_zone
        FROM event_occurrences o
       WHERE o.id = ANY(${sql.param(ids)}::uuid[]) AND o.ends_at > now()
    ), first AS (
      SELECT DISTINCT ON (a.series_id) a.*,
             (SELECT count(*) FROM a a2 WHERE a2.series_id = a.series_id)::int AS count,
             NOT EXISTS (SELECT 1 FROM event_occurrences f
                          WHERE f.series_id = a.series_id AND f.status = 'scheduled' AND f.ends_at > now()) AS series_over
        FROM a ORDER BY a.series_id, a.starts_at, a.id
    ), told AS (
      SELECT a.series_id, r.user_id
        FROM a JOIN event_occurrences o ON o.id = a.id
        JOIN event_rsvps r ON r.occurrence_id = a.id AND r.status IN ('going', 'waitlisted')
       WHERE ${userSeesSql(sql`r.user_id`)}
      UNION
      SELECT first.series_id, mm.user_id
        FROM first JOIN event_occurrences o ON o.id = first.id
        JOIN community_members mm ON mm.community_id = o.community_id
       WHERE ${sql.raw(everyoneIfOver ? "true" : "false")} AND first.series_over AND ${userSeesSql(sql`mm.user_id`)}
    )
    SELECT first.series_id, first.id AS occurrence_id, first.community_id, first.title, first.starts_at, first.time_zone,
           first.count, first.series_over,
           coalesce((SELECT array_agg(told.user_id) FROM told WHERE told.series_id = first.series_id), '{}') AS recipients
      FROM first`);
  return res.rows;
}

const when = (e: Affected) => startText(e.starts_at, e.time_zone);

/** Occurrences changed (time, place, link…): tell those going or waitlisted. */
export async function notifyEventChanged(
  db: Queryable,
  occurrenceIds: string[],
  actorId: string | null = null,
): Promise<void> {
  if (occurrenceIds.length === 0) return;
  for (const e of await affectedSeries(db, occurrenceIds, false)) {
    if (e.recipients.length === 0) continue;
    await notify(db, {
      recipients: e.recipients,
      actorId,
      communityId: e.community_id,
      type: "event_changed",
      title: EVENT_NOTIFICATION_TITLES.changed(e.title),
      body: e.count === 1 ? when(e) : `${e.count} upcoming dates changed, next: ${when(e)}`,
      occurrenceId: e.occurrence_id,
      data: { community_id: e.community_id },
    });
  }
}

/** Occurrences were cancelled: tell those going, and everyone who sees it when the whole event is off. */
export async function notifyEventCancelled(
  db: Queryable,
  occurrenceIds: string[],
  actorId: string | null = null,
): Promise<void> {
  if (occurrenceIds.length === 0) return;
  for (const e of await affectedSeries(db, occurrenceIds, true)) {
    if (e.recipients.length === 0) continue;
    await notify(db, {
      recipients: e.recipients,
      actorId,
      communityId: e.community_id,
      type: "event_cancelled",
      title: EVENT_NOTIFICATION_TITLES.cancelled(e.title),
      body: e.count === 1 ? when(e) : `${e.count} upcoming dates cancelled, from ${when(e)}`,
      occurrenceId: e.occurrence_id,
      data: { community_id: e.community_id },
    });
  }
}
