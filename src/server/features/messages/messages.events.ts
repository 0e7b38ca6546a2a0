import { sql } from "drizzle-orm";
import { MESSAGE_EVENT_TYPES, MESSAGE_LIMITS, type MessageEventType } from "#shared/messaging";
import type { Queryable } from "#server/db/client";
import { REALTIME_NOTIFY_CHANNEL, userChannel } from "#server/lib/realtime";

/** The job that, 15 minutes after a person's messages started waiting unread, puts them in their digest. */
export const MESSAGE_DIGEST_QUEUE = "messages.digest";

/**
 * Tells each of `userIds` (their `user:<id>` channel) that a conversation changed, in the caller's
 * transaction: announced at commit to every process, replayed by Last-Event-ID. A hint naming the
 * conversation only; the client refetches through the API.
 */
export async function publishMessageEvent(
  db: Queryable,
  type: MessageEventType,
  conversationId: string,
  userIds: readonly string[],
): Promise<void> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return;
  await db.execute(sql`
    WITH e AS (
      INSERT INTO realtime_events (channel, payload)
      SELECT ${userChannel("")} || u, jsonb_build_object('type', ${type}::text, 'conversation_id', ${conversationId}::text)
        FROM unnest(${sql.param(ids)}::text[]) AS u
      RETURNING id, channel)
    SELECT pg_notify(${REALTIME_NOTIFY_CHANNEL}, channel || '|' || id) FROM e`);
}

/** The stream's frame of a stored message event, or null when the payload is not one. */
export function messageEventFrame(id: number, payload: Record<string, unknown>) {
  const { type, conversation_id: conversationId } = payload;
  if (!(MESSAGE_EVENT_TYPES as readonly unknown[]).includes(type) || typeof conversationId !== "string") return null;
  return { id, event: type as MessageEventType, data: { type, conversation_id: conversationId } };
}

/** Queues the digest check for `userId`, due when a message waiting now has waited digestAfterSeconds. */
export async function queueDigestCheck(db: Queryable, userId: string): Promise<void> {
  await db.execute(sql`
    INSERT INTO jobs (queue, payload, run_at)
    VALUES (${MESSAGE_DIGEST_QUEUE}, jsonb_build_object('userId', ${userId}::text),
            now() + make_interval(secs => ${MESSAGE_LIMITS.digestAfterSeconds}))`);
}
