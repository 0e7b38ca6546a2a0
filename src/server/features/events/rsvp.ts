import { sql } from "drizzle-orm";
import { CALENDAR_MESSAGES as M, EVENT_LIMITS, type RsvpChoice, type RsvpStatus } from "#shared/calendar";
import type { Queryable } from "#server/db/client";
import type { AppContext, Viewer } from "#server/context";
import { userCardSql, type UserCard } from "#server/features/posts/index";
import { isUuid } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { notify } from "#server/lib/notifications";
import { mayAttendSql, occurrenceSeenSql, userMayAttendSql, viewerJoinSql } from "./event-access";

/*
 * RSVPs and the waitlist (issue 19). Every change to an occurrence's RSVPs runs in one transaction
 * that first locks the occurrence's row (SELECT … FOR UPDATE): RSVPs of the same occurrence queue
 * behind each other, so the free seats they see are exact, the waitlist takes them in the order they
 * got the lock, and going_count and waitlist_count are recounted from the rows before the lock is
 * released. The event service calls promoteWaitlist after raising an occurrence's capacity (or
 * removing it), inside its own transaction.
 */

export type RsvpResult = {
  rsvp: RsvpStatus;
  waitlist_position: number | null;
  going_count: number;
  waitlist_count: number;
};

/** The next value of event_rsvps.seq: a new place at the end of the line (or of the attendee list). */
const NEXT_SEQ = sql`nextval(pg_get_serial_sequence('event_rsvps', 'seq'))`;

/** Locks the occurrence's row until the transaction ends; null when it does not exist. */
async function lockOccurrence(db: Queryable, occurrenceId: string) {
  const res = await db.execute<{
    capacity: number | null;
    status: string;
    ended: boolean;
    title: string;
    community_id: string;
  }>(sql`
    SELECT capacity, status, ends_at <= now() AS ended, title, community_id
      FROM event_occurrences WHERE id = ${occurrenceId} FOR UPDATE`);
  return res.rows[0] ?? null;
}

/** Sets going_count and waitlist_count from the rows (the row is locked by the caller). */
async function recount(db: Queryable, occurrenceId: string) {
  const res = await db.execute<{ going_count: number; waitlist_count: number }>(sql`
    UPDATE event_occurrences o
       SET going_count = (SELECT count(*)::int FROM event_rsvps r WHERE r.occurrence_id = o.id AND r.status = 'going'),
           waitlist_count = (SELECT count(*)::int FROM event_rsvps r WHERE r.occurrence_id = o.id AND r.status = 'waitlisted')
     WHERE o.id = ${occurrenceId}
     RETURNING going_count, waitlist_count`);
  return res.rows[0];
}

/** The title of the notification someone promoted from the waitlist gets. */
export const promotedTitle = (eventTitle: string) => `You're going to ${eventTitle}: a seat opened up`;

/**
 * Moves people from the waitlist to going, first in line (lowest seq) first, while there is room,
 * and tells each of them (an 'event_changed' notification). Runs inside the caller's transaction:
 * locks the occurrence's row, then fixes both counters. Returns the ids of those promoted.
 */
export async function promoteWaitlist(db: Queryable, occurrenceId: string): Promise<string[]> {
  const occurrence = await lockOccurrence(db, occurrenceId);
  if (!occurrence) return [];
  const promoted = await db.execute<{ user_id: string }>(sql`
    WITH line AS (
      SELECT r.user_id FROM event_rsvps r
       WHERE r.occurrence_id = ${occurrenceId} AND r.status = 'waitlisted'
       ORDER BY r.seq
       LIMIT (SELECT CASE WHEN o.capacity IS NULL THEN NULL
                          ELSE greatest(0, o.capacity - (SELECT count(*) FROM event_rsvps g
                                                           WHERE g.occurrence_id = o.id AND g.status = 'going')) END
                FROM event_occurrences o WHERE o.id = ${occurrenceId})
    )
    UPDATE event_rsvps r SET status = 'going', updated_at = now()
      FROM line
     WHERE r.occurrence_id = ${occurrenceId} AND r.user_id = line.user_id
    RETURNING r.user_id`);
  const ids = promoted.rows.map((r) => r.user_id);
  if (ids.length === 0) return [];
  await recount(db, occurrenceId);
  await notify(db, {
    recipients: ids,
    actorId: null,
    communityId: occurrence.community_id,
    type: "event_changed",
    title: promotedTitle(occurrence.title),
    body: "",
    data: { occurrence_id: occurrenceId },
  });
  return ids;
}

/** Where the viewer stands in the line (1: first), or null when not waitlisted. */
async function waitlistPosition(db: Queryable, occurrenceId: string, userId: string): Promise<number | null> {
  const res = await db.execute<{ position: number }>(sql`
    SELECT count(*)::int AS position FROM event_rsvps r
     WHERE r.occurrence_id = ${occurrenceId} AND r.status = 'waitlisted'
       AND r.seq <= (SELECT seq FROM event_rsvps WHERE occurrence_id = ${occurrenceId} AND user_id = ${userId}
                                                    AND status = 'waitlisted')`);
  const position = res.rows[0]?.position ?? 0;
  return position > 0 ? position : null;
}

/**
 * The viewer's answer for an occurrence they see: going (a seat if there is one, else the end of the
 * waitlist) or not going (a seat given up goes to the first in line). The same answer twice changes
 * nothing: a seat or a place in line is kept.
 */
export async function setRsvp(input: {
  ctx: AppContext;
  viewer: Viewer;
  occurrenceId: string;
  choice: RsvpChoice;
}): Promise<RsvpResult> {
  const { ctx, viewer, occurrenceId, choice } = input;
  if (!isUuid(occurrenceId)) throw new AppError("NOT_FOUND", M.notFound);
  return ctx.db.transaction(async (tx) => {
    const access = await tx.execute<{ seen: boolean; may_attend: boolean; current: RsvpStatus | null }>(sql`
      SELECT ${occurrenceSeenSql()} AS seen, ${mayAttendSql(viewer.id)} AS may_attend,
             (SELECT r.status FROM event_rsvps r WHERE r.occurrence_id = o.id AND r.user_id = ${viewer.id}) AS current
        FROM event_occurrences o ${viewerJoinSql(viewer.id)}
       WHERE o.id = ${occurrenceId}`);
    const seen = access.rows[0];
    if (!seen?.seen) throw new AppError("NOT_FOUND", M.notFound);
    // Someone who may no longer attend (a tier lapsed) may still give up a seat or a place in line.
    const holds = seen.current === "going" || seen.current === "waitlisted";
    if (!seen.may_attend && !(choice === "not_going" && holds)) throw new AppError("FORBIDDEN", M.notInvited);

    const occurrence = await lockOccurrence(tx, occurrenceId);
    if (!occurrence) throw new AppError("NOT_FOUND", M.notFound);
    if (occurrence.status === "cancelled") throw new AppError("CONFLICT", M.cancelled);
    if (occurrence.ended) throw new AppError("CONFLICT", M.ended);

    // Read again under the lock: an RSVP of the same person that got the lock first may have changed it.
    const mine = await tx.execute<{ status: RsvpStatus }>(sql`
      SELECT status FROM event_rsvps WHERE occurrence_id = ${occurrenceId} AND user_id = ${viewer.id}`);
    const current = mine.rows[0]?.status ?? null;

    if (choice === "going" && current !== "going" && current !== "waitlisted") {
      // Seats freed without a promotion (none expected) go to the line before a newcomer.
      await promoteWaitlist(tx, occurrenceId);
      await tx.execute(sql`
        INSERT INTO event_rsvps (occurrence_id, user_id, status, seq)
        SELECT ${occurrenceId}, ${viewer.id},
               CASE WHEN o.capacity IS NULL
                      OR (SELECT count(*) FROM event_rsvps g WHERE g.occurrence_id = o.id AND g.status = 'going') < o.capacity
                    THEN 'going' ELSE 'waitlisted' END,
               ${NEXT_SEQ}
          FROM event_occurrences o WHERE o.id = ${occurrenceId}
        ON CONFLICT (occurrence_id, user_id)
          DO UPDATE SET status = excluded.status, seq = excluded.seq, updated_at = now()`);
    } else if (choice === "not_going" && current !== "not_going") {
      await tx.execute(sql`
        INSERT INTO event_rsvps (occurrence_id, user_id, status, seq)
        VALUES (${occurrenceId}, ${viewer.id}, 'not_going', ${NEXT_SEQ})
        ON CONFLICT (occurrence_id, user_id) DO UPDATE SET status = 'not_going', updated_at = now()`);
      if (current === "going") await promoteWaitlist(tx, occurrenceId);
    }

    const counts = await recount(tx, occurrenceId);
    const after = await tx.execute<{ status: RsvpStatus }>(sql`
      SELECT status FROM event_rsvps WHERE occurrence_id = ${occurrenceId} AND user_id = ${viewer.id}`);
    const rsvp = after.rows[0]?.status ?? "not_going";
    return {
      rsvp,
      waitlist_position: rsvp === "waitlisted" ? await waitlistPosition(tx, occurrenceId, viewer.id) : null,
      going_count: counts.going_count,
      waitlist_count: counts.waitlist_count,
    };
  });
}

export type AttendeePage = { going: UserCard[]; waitlist_count: number; next_cursor: string | null };

/**
 * Who is going to an occurrence, in the order they said so (seq), a page at a time; for anyone who
 * sees it. Only those who may still attend are listed: someone who left the community (or lost the
 * tier) drops off the list though their row stays. The cursor is the last listed person's seq.
 */
export async function listAttendees(input: {
  ctx: AppContext;
  viewer: Viewer;
  occurrenceId: string;
  cursor?: string;
  limit?: number;
}): Promise<AttendeePage> {
  const { ctx, viewer, occurrenceId } = input;
  const limit = Math.min(input.limit ?? EVENT_LIMITS.page, EVENT_LIMITS.maxPage);
  if (!isUuid(occurrenceId)) throw new AppError("NOT_FOUND", M.notFound);
  const seen = await ctx.db.execute<{ waitlist_count: number }>(sql`
    SELECT o.waitlist_count FROM event_occurrences o ${viewerJoinSql(viewer.id)}
     WHERE o.id = ${occurrenceId} AND ${occurrenceSeenSql()}`);
  if (seen.rows.length === 0) throw new AppError("NOT_FOUND", M.notFound);
  const after = input.cursor && /^\d{1,18}$/.test(input.cursor) ? Number(input.cursor) : 0;
  const res = await ctx.db.execute<{ seq: number; card: UserCard | null }>(sql`
    SELECT r.seq, ${sql.raw(userCardSql("r.user_id"))} AS card
      FROM event_rsvps r JOIN event_occurrences o ON o.id = r.occurrence_id
     WHERE r.occurrence_id = ${occurrenceId} AND r.status = 'going' AND r.seq > ${after}
       AND ${userMayAttendSql(sql`r.user_id`)}
     ORDER BY r.seq
     LIMIT ${limit + 1}`);
  const rows = res.rows.slice(0, limit);
  return {
    going: rows.flatMap((r) => (r.card ? [r.card] : [])),
    waitlist_count: seen.rows[0].waitlist_count,
    next_cursor: res.rows.length > limit ? String(rows[rows.length - 1].seq) : null,
  };
}
