import { sql } from "drizzle-orm";
import { isPostVisibility, type PostVisibility } from "#shared/posts";
import { COMMUNITY_ROLES, mayViewPost } from "#shared/roles";
import type { Queryable } from "#server/db/client";
import { REALTIME_NOTIFY_CHANNEL } from "./realtime-hub";

/**
 * The realtime bus (DESIGN §2). An event is a row in `realtime_events` plus a NOTIFY on
 * `hearth_realtime` carrying `<channel>|<id>`, both in the writer's transaction: an event of a
 * rolled-back write is never announced, and NOTIFY reaches every process's listener at commit.
 * Each process reads the announced rows (one query per tick for all channels) and hands them to
 * its local subscribers (realtime-hub.ts); a reconnecting client names the last id it saw and gets
 * what it missed from the retained backlog, or a `resync` when that is not possible. Streams are
 * sent as Server-Sent Events (sse.ts).
 *
 * Events are hints, never content: a client refetches through the API, which applies every rule.
 */

export {
  DEFAULT_REALTIME_SETTINGS,
  REALTIME_NOTIFY_CHANNEL,
  RealtimeHub,
  type RealtimeMessage,
  type RealtimeSettings,
  type Subscription,
} from "./realtime-hub";
export { parseEventId, SseStream, type SseFrame, type SseOptions } from "./sse";

export const communityChannel = (communityId: string) => `community:${communityId}`;
export const userChannel = (userId: string) => `user:${userId}`;

/**
 * Appends an event to a channel inside the caller's transaction (pass the `tx`). Returns its id.
 * Call it as late in the transaction as convenient: the id is taken now, the event is announced
 * at commit.
 */
export async function publish(db: Queryable, channel: string, payload: Record<string, unknown>): Promise<number> {
  if (!channel || channel.length > 200 || channel.includes("|"))
    throw new Error(`invalid realtime channel: ${channel}`);
  const res = await db.execute<{ id: number }>(sql`
    WITH e AS (
      INSERT INTO realtime_events (channel, payload) VALUES (${channel}, ${JSON.stringify(payload)}::jsonb)
      RETURNING id)
    SELECT id, pg_notify(${REALTIME_NOTIFY_CHANNEL}, ${channel} || '|' || id) FROM e`);
  return Number(res.rows[0].id);
}

export const MEMBERSHIPS_EVENT = { type: "memberships" } as const;

/**
 * Tells each user that their list of communities changed (joined, left, removed, role changed,
 * community deleted): a `memberships` event on their own channel, one statement for any number of
 * users, inside the caller's transaction. The event names nothing; the client refetches the list.
 */
export async function publishMembershipChange(db: Queryable, userIds: readonly string[]): Promise<void> {
  const ids = [...new Set(userIds)].filter(Boolean);
  if (ids.length === 0) return;
  await db.execute(sql`
    WITH e AS (
      INSERT INTO realtime_events (channel, payload)
      SELECT ${userChannel("")} || u, ${JSON.stringify(MEMBERSHIPS_EVENT)}::jsonb FROM unnest(${sql.param(ids)}::text[]) AS u
      RETURNING id, channel)
    SELECT pg_notify(${REALTIME_NOTIFY_CHANNEL}, channel || '|' || id) FROM e`);
}

// ---------------------------------------------------------------------------------------------
// Post events of a community

export type { PostVisibility };
export const POST_EVENT_TYPES = ["post_created", "post_updated", "post_deleted"] as const;
export type PostEventType = (typeof POST_EVENT_TYPES)[number];
/** What is stored; the stream sends only `{ type, post_id }`. */
export type PostEventPayload = { type: PostEventType; post_id: string; visibility: PostVisibility };

/** How many kinds of viewer (non-member and each role) may read a visibility: the wider, the more. */
const audienceOf = (visibility: PostVisibility) =>
  [null, ...COMMUNITY_ROLES].filter((role) => mayViewPost(role, visibility)).length;

/**
 * Announces a change to a post on `community:<communityId>`, inside the caller's transaction.
 * Call it only for posts the feed shows (approved ones): a post held for approval is announced
 * as `post_created` when it is approved. When an edit narrows who may see the post, pass the old
 * visibility as `previousVisibility`: the event then goes to everyone who could see it before, so
 * their feed drops it (they learn nothing new: only the post's id travels).
 */
export function publishPostEvent(
  tx: Queryable,
  input: {
    communityId: string;
    postId: string;
    type: PostEventType;
    visibility: PostVisibility;
    previousVisibility?: PostVisibility;
  },
): Promise<number> {
  const widest =
    input.previousVisibility && audienceOf(input.previousVisibility) > audienceOf(input.visibility)
      ? input.previousVisibility
      : input.visibility;
  const payload: PostEventPayload = { type: input.type, post_id: input.postId, visibility: widest };
  return publish(tx, communityChannel(input.communityId), payload);
}

export function parsePostEvent(payload: Record<string, unknown>): PostEventPayload | null {
  const { type, post_id, visibility } = payload;
  if (!(POST_EVENT_TYPES as readonly unknown[]).includes(type)) return null;
  if (typeof post_id !== "string") return null;
  if (!isPostVisibility(visibility)) return null;
  return { type: type as PostEventType, post_id, visibility };
}
