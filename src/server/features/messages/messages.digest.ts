import { sql } from "drizzle-orm";
import { MESSAGE_LIMITS } from "#shared/messaging";
import { NOTIFICATION_LIMITS } from "#shared/notifications";
import type { AppContext } from "#server/context";
import type { Queryable } from "#server/db/client";
import type { JobHandler } from "#server/lib/jobs";
import { DIGEST_QUEUE } from "#server/lib/notifications";
import { MESSAGE_DIGEST_QUEUE } from "./messages.events";

/**
 * Unread messages in the email digest (issue 22): a conversation whose unread messages have waited
 * digestAfterSeconds is listed once per wait (digested_at), naming who wrote and how many, never
 * what they wrote. The digest itself (notifications.service.ts sendDigest) honours the person's
 * email settings and its 15-minute spacing.
 */

/** SQL over conversation_members `cm`: its unread messages waited long enough and were not mailed yet. */
const waitingForDigest = sql`
  cm.unread_count > 0
  AND cm.unread_since <= now() - make_interval(secs => ${MESSAGE_LIMITS.digestAfterSeconds})
  AND (cm.digested_at IS NULL OR cm.digested_at < cm.unread_since)
  AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = cm.user_id AND b.blocked_id = cm.other_user_id)`;

export type DigestConversation = { conversation_id: string; name: string; count: number };

/**
 * The conversations to list in `userId`'s digest, marked as mailed (call it inside the digest's
 * transaction: a digest that fails leaves them for the next one).
 */
export async function takeMessagesForDigest(db: Queryable, userId: string): Promise<DigestConversation[]> {
  const res = await db.execute<DigestConversation>(sql`
    WITH picked AS (
      UPDATE conversation_members cm SET digested_at = now()
       WHERE cm.user_id = ${userId} AND ${waitingForDigest}
      RETURNING cm.conversation_id, cm.other_user_id, cm.unread_count, cm.last_message_at)
    SELECT picked.conversation_id, coalesce(nullif(btrim(p.full_name), ''), p.username, 'Someone') AS name,
           picked.unread_count::int AS count
      FROM picked LEFT JOIN user_profiles p ON p.user_id = picked.other_user_id
     ORDER BY picked.last_message_at DESC, picked.conversation_id
     LIMIT 500`);
  return res.rows;
}

/**
 * Schedules `userId`'s digest when some of their messages have waited long enough: at once, or when
 * the 15-minute spacing after the last digest allows; a digest already due picks them up.
 */
async function scheduleDigest(db: Queryable, userId: string): Promise<void> {
  await db.execute(sql`
    WITH waiting AS (
      SELECT 1 FROM conversation_members cm WHERE cm.user_id = ${userId} AND ${waitingForDigest} LIMIT 1
    ), due AS (
      INSERT INTO user_notification_settings AS s (user_id, digest_due_at)
      SELECT ${userId}, now() FROM waiting
      ON CONFLICT (user_id) DO UPDATE
         SET digest_due_at = greatest(now(),
               coalesce(s.last_digest_at, '-infinity'::timestamptz) + make_interval(secs => ${NOTIFICATION_LIMITS.digestIntervalSeconds}))
       WHERE s.digest_due_at IS NULL
      RETURNING s.user_id, s.digest_due_at
    )
    INSERT INTO jobs (queue, payload, run_at)
    SELECT ${DIGEST_QUEUE}::text, jsonb_build_object('userId', due.user_id), due.digest_due_at FROM due`);
}

export function messageJobHandlers(ctx: AppContext): Record<string, JobHandler> {
  return {
    [MESSAGE_DIGEST_QUEUE]: async (payload) => {
      if (typeof payload.userId === "string") await scheduleDigest(ctx.db, payload.userId);
    },
  };
}
