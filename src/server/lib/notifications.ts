import { createHmac, timingSafeEqual } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { FLAG_OF_TYPE, NOTIFICATION_LIMITS, type NotificationType } from "#shared/notifications";
import type { Queryable } from "#server/db/client";
import { userSeesSql } from "#server/features/events/event-access";
import { postReadable } from "./post-access";
import { REALTIME_NOTIFY_CHANNEL } from "./realtime";

/** The job queue that mails a user's digest. */
export const DIGEST_QUEUE = "notifications.digest";

/**
 * Whether `userId` may see a notification about this community and post: the community is not
 * private or they are a member, and the post (when there is one) still exists and is one they
 * may read (SPEC §6, the feed's rules: postReadable, so a post hidden pending review after reports
 * reaches only its author), and the event (when there is one) is one they still see
 * (event-access.ts). Applied when a notification is made and whenever one is read, counted,
 * streamed or mailed: someone who lost access never sees it.
 *
 * One more case: a notification about a join request (data.request_id, no post, no event) reaches
 * the person who made that request to that community, member or not, so a declined applicant of a
 * private community hears of the decision.
 */
export function mayReceive(
  userId: SQL,
  communityId: SQL,
  postId: SQL,
  occurrenceId: SQL = sql`NULL`,
  requestId: SQL = sql`NULL`,
): SQL {
  return sql`(${communityId} IS NULL OR (${requestId} IS NOT NULL AND ${postId} IS NULL AND ${occurrenceId} IS NULL
      AND EXISTS (SELECT 1 FROM join_requests jr
                   WHERE jr.id = ${requestId} AND jr.user_id = ${userId} AND jr.community_id = ${communityId}))
    OR EXISTS (
      SELECT 1 FROM communities rc
        LEFT JOIN community_members rm ON rm.community_id = rc.id AND rm.user_id = ${userId}
       WHERE rc.id = ${communityId}
         AND (rc.visibility <> 'private' OR rm.role IS NOT NULL)
         AND (${postId} IS NULL OR EXISTS (
              SELECT 1 FROM posts rp
               WHERE rp.id = ${postId} AND rp.community_id = rc.id
                 AND ${postReadable("rp", sql`rm.role`, sql`rc.visibility`, userId)}))
         AND (${occurrenceId} IS NULL OR EXISTS (
              SELECT 1 FROM event_occurrences o WHERE o.id = ${occurrenceId} AND ${userSeesSql(userId)}))))`;
}

/** `mayReceive` for a row of `notifications` aliased `n`. */
export const notificationVisible = mayReceive(
  sql`n.user_id`,
  sql`n.community_id`,
  sql`(n.data->>'post_id')::uuid`,
  sql`(n.data->>'occurrence_id')::uuid`,
  sql`(n.data->>'request_id')::uuid`,
);

export type NotifyInput = {
  recipients: string[];
  /** Who acted; never notified about their own action. */
  actorId: string | null;
  communityId: string | null;
  type: NotificationType;
  /** The first `{actor}` is replaced by the actor's name (put it before any text quoted from users). */
  title: string;
  /** Defaults to an excerpt of the post, when there is one. */
  body?: string;
  postId?: string | null;
  /** The event occurrence it is about (kept in data.occurrence_id): only those who see it get it. */
  occurrenceId?: string | null;
  data?: Record<string, unknown>;
};

/**
 * Creates the notification for each recipient who wants it, inside the caller's transaction, in
 * one statement: not for the actor; only with notifications on (global, and in-app or email) and
 * the community's switch for this type on; only for someone who may see the community and post.
 * In-app ones are announced on the recipient's realtime channel at commit; for those with email
 * on, a digest is scheduled (one pending job per user, at most every 15 minutes).
 * Returns how many were created.
 */
export async function notify(db: Queryable, input: NotifyInput): Promise<number> {
  return notifyAll(db, [input]);
}

/**
 * notify for many notifications at once (a batch of payment events: each new member's join to the
 * owners), still one statement, with the same rules for each. Returns how many were created.
 */
export async function notifyAll(db: Queryable, inputs: NotifyInput[]): Promise<number> {
  // One row per (notification, recipient), passed as one array per column: unnest tells the planner
  // how many rows there are. jsonb_to_recordset did not (it guesses 100, and 100 recipients each),
  // and for one like's notification that guess made it hash the whole "user" table: 7.1 ms in
  // EXPLAIN ANALYZE on the posts data set (20,000 members), 1.6 ms by key.
  const rows = inputs.flatMap((input, n) => {
    const postId = input.postId ?? null;
    const occurrenceId =
      input.occurrenceId ?? (typeof input.data?.occurrence_id === "string" ? input.data.occurrence_id : null);
    const item = {
      n,
      actorId: input.actorId,
      communityId: input.communityId,
      type: input.type,
      flag: FLAG_OF_TYPE[input.type],
      title: input.title,
      // Null: the post's excerpt, when there is one.
      body: input.body ?? null,
      postId,
      occurrenceId,
      requestId: typeof input.data?.request_id === "string" ? input.data.request_id : null,
      data: JSON.stringify({
        ...input.data,
        ...(postId ? { post_id: postId } : {}),
        ...(occurrenceId ? { occurrence_id: occurrenceId } : {}),
      }),
    };
    return [...new Set(input.recipients)]
      .filter((id) => id && id !== input.actorId)
      .map((userId) => ({ ...item, userId }));
  });
  if (rows.length === 0) return 0;
  const column = <K extends keyof (typeof rows)[number]>(key: K) => sql.param(rows.map((r) => r[key]));
  const res = await db.execute<{ created: number }>(sql`
    WITH cand AS (
      SELECT i.n, i.user_id, i.actor_id, i.community_id, i.type, i.flag, i.title, i.body, i.post_id,
             i.occurrence_id, i.request_id, i.data::jsonb AS data
        FROM unnest(${column("n")}::int[], ${column("userId")}::text[], ${column("actorId")}::text[],
                    ${column("communityId")}::uuid[], ${column("type")}::text[], ${column("flag")}::text[],
                    ${column("title")}::text[], ${column("body")}::text[], ${column("postId")}::uuid[],
                    ${column("occurrenceId")}::uuid[], ${column("requestId")}::uuid[], ${column("data")}::text[])
             AS i(n, user_id, actor_id, community_id, type, flag, title, body, post_id, occurrence_id, request_id, data)
    ), ok AS (
      SELECT cand.*,
             coalesce(s.in_app_enabled, true) AS in_app,
             coalesce(s.email_enabled, true) AS email
        FROM cand
        JOIN "user" u ON u.id = cand.user_id
        LEFT JOIN user_notification_settings s ON s.user_id = cand.user_id
       WHERE coalesce(s.global_enabled, true)
         AND (coalesce(s.in_app_enabled, true) OR coalesce(s.email_enabled, true))
         AND coalesce((s.community_settings -> coalesce(cand.community_id::text, '') ->> cand.flag)::boolean, true)
         AND ${mayReceive(sql`cand.user_id`, sql`cand.community_id`, sql`cand.post_id`, sql`cand.occurrence_id`, sql`cand.request_id`)}
    ), named AS (
      SELECT ok.*,
             coalesce((SELECT coalesce(nullif(btrim(p.full_name), ''), p.username)
                         FROM user_profiles p WHERE p.user_id = ok.actor_id), 'Someone') AS actor_name
        FROM ok
    ), ins AS (
      INSERT INTO notifications (user_id, community_id, actor_id, type, title, body, data, in_app)
      SELECT named.user_id, named.community_id, named.actor_id, named.type,
             -- The first {actor} only: the template's; one inside a name or title it quotes stays as typed.
             CASE WHEN strpos(named.title, '{actor}') > 0
                  THEN overlay(named.title PLACING named.actor_name FROM strpos(named.title, '{actor}') FOR 7)
                  ELSE named.title END,
             coalesce(named.body,
                      (SELECT left(btrim(regexp_replace(p.content, '\\s+', ' ', 'g')), 140) FROM posts p WHERE p.id = named.post_id),
                      ''),
             named.data, named.in_app
        FROM named
       ORDER BY named.n
      ON CONFLICT DO NOTHING
      RETURNING id, user_id, in_app
    ), ev AS (
      INSERT INTO realtime_events (channel, payload)
      SELECT 'user:' || ins.user_id, jsonb_build_object('type', 'notification', 'id', ins.id)
        FROM ins WHERE ins.in_app
      RETURNING id, channel
    ), due AS (
      -- Not for those whose digest is due more than a minute from now (it will pick this one up):
      -- the upsert locks the settings row until commit, which would queue every like, comment and
      -- join notifying one person behind the other. Near or past the due time the digest may be
      -- running (it holds the row), so the upsert waits and schedules the next one.
      INSERT INTO user_notification_settings AS s (user_id, digest_due_at)
      SELECT DISTINCT ins.user_id, now() + make_interval(secs => ${NOTIFICATION_LIMITS.digestDelaySeconds})
        FROM ins
       WHERE EXISTS (SELECT 1 FROM ok WHERE ok.user_id = ins.user_id AND ok.email)
         AND NOT EXISTS (
             SELECT 1 FROM user_notification_settings d
              WHERE d.user_id = ins.user_id AND d.digest_due_at > now() + interval '1 minute')
      ON CONFLICT (user_id) DO UPDATE
         SET digest_due_at = greatest(
               now() + make_interval(secs => ${NOTIFICATION_LIMITS.digestDelaySeconds}),
               coalesce(s.last_digest_at, '-infinity'::timestamptz) + make_interval(secs => ${NOTIFICATION_LIMITS.digestIntervalSeconds}))
       WHERE s.digest_due_at IS NULL
      RETURNING s.user_id, s.digest_due_at
    ), queued AS (
      INSERT INTO jobs (queue, payload, run_at)
      SELECT ${DIGEST_QUEUE}::text, jsonb_build_object('userId', due.user_id), due.digest_due_at FROM due
      RETURNING id
    )
    SELECT (SELECT count(*) FROM ins)::int AS created,
           (SELECT count(pg_notify(${REALTIME_NOTIFY_CHANNEL}::text, ev.channel || '|' || ev.id)) FROM ev)::int AS announced,
           (SELECT count(*) FROM queued)::int AS queued`);
  return Number(res.rows[0]?.created ?? 0);
}

/** The owners and admins of a community, who hear about new members: an array, inside a statement. */
export const communityAdminsSql = (communityId: string | SQL) => sql`
  ARRAY(SELECT a.user_id FROM community_members a
         WHERE a.community_id = ${typeof communityId === "string" ? sql`${communityId}::uuid` : communityId}
           AND a.role IN ('owner', 'admin'))`;

/** The owners and admins of a community: who hears about new members. */
export async function communityAdmins(db: Queryable, communityId: string): Promise<string[]> {
  const res = await db.execute<{ admins: string[] }>(sql`SELECT ${communityAdminsSql(communityId)} AS admins`);
  return res.rows[0].admins;
}

// ---------------------------------------------------------------------------------------------
// Unsubscribe links

const unsubscribeMac = (secret: string, userId: string) =>
  createHmac("sha256", secret).update(`hearth:unsubscribe:${userId}`).digest("base64url");

/** A token that turns email notifications off for this user, and nothing else. */
export function unsubscribeToken(secret: string, userId: string): string {
  return `${Buffer.from(userId).toString("base64url")}.${unsubscribeMac(secret, userId)}`;
}

/** The user a token was made for, or null when it was not made with this secret. */
export function readUnsubscribeToken(secret: string, token: string): string | null {
  const [encoded, mac] = token.split(".");
  if (!encoded || !mac || token.length > 300) return null;
  const userId = Buffer.from(encoded, "base64url").toString("utf8");
  const expected = Buffer.from(unsubscribeMac(secret, userId));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given) ? userId : null;
}
