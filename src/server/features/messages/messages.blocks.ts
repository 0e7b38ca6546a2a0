import { sql } from "drizzle-orm";
import { MESSAGING_MESSAGES, messagePolicyOf, type MessagePolicy } from "#shared/messaging";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { AppError } from "#server/lib/errors";
import { publishMessageEvent } from "./messages.events";

/**
 * Who may write to me: the policy (the spec's allow_messages) and blocks. Blocking someone stops
 * messages both ways and takes their conversation out of my inbox and unread count until I unblock
 * (messages.service.ts); my profile shows them messages off (hasBlocked, used by profiles).
 */

type Req<T = object> = { ctx: AppContext; viewer: Viewer } & T;

export async function findMessagingSettings({ ctx, viewer }: Req) {
  const res = await ctx.db.execute<{ allow_messages: boolean }>(sql`
    SELECT allow_messages FROM user_profiles WHERE user_id = ${viewer.id}`);
  return { policy: messagePolicyOf(res.rows[0]?.allow_messages ?? true) };
}

export async function updateMessagingSettings({ ctx, viewer, policy }: Req<{ policy: MessagePolicy }>) {
  await ctx.db.execute(sql`
    UPDATE user_profiles SET allow_messages = ${policy === "members"}, updated_at = now() WHERE user_id = ${viewer.id}`);
  // The session's cached profile carries allow_messages.
  ctx.viewer.evictUser(viewer.id);
  return { policy };
}

/** Whether `blockerId` blocked `blockedId`. */
export async function hasBlocked(db: Queryable, blockerId: string, blockedId: string): Promise<boolean> {
  const res = await db.execute(sql`
    SELECT 1 FROM user_blocks WHERE blocker_id = ${blockerId} AND blocked_id = ${blockedId}`);
  return res.rows.length > 0;
}

export async function findBlocks({ ctx, viewer }: Req) {
  const res = await ctx.db.execute<{
    id: string;
    username: string | null;
    full_name: string | null;
    avatar_url: string | null;
    created_at: Date | string;
  }>(sql`
    SELECT b.blocked_id AS id, p.username, p.full_name, p.avatar_url, b.created_at
      FROM user_blocks b LEFT JOIN user_profiles p ON p.user_id = b.blocked_id
     WHERE b.blocker_id = ${viewer.id}
     ORDER BY b.created_at DESC, b.blocked_id
     LIMIT 1000`);
  return {
    blocks: res.rows.map((r) => ({
      user: {
        id: r.id,
        username: r.username ?? "",
        full_name: r.full_name || r.username || "",
        avatar_url: r.avatar_url,
      },
      created_at: new Date(r.created_at).toISOString(),
    })),
  };
}

/**
 * Blocks or unblocks a person (again is fine). The viewer's open tabs hear about their
 * conversation with that person, which leaves or comes back to the inbox.
 */
export async function setBlocked({ ctx, viewer, userId, blocked }: Req<{ userId: string; blocked: boolean }>) {
  if (userId === viewer.id) throw new AppError("VALIDATION", MESSAGING_MESSAGES.cannotBlockSelf);
  await ctx.db.transaction(async (tx) => {
    const exists = await tx.execute(sql`SELECT 1 FROM "user" WHERE id = ${userId}`);
    if (exists.rows.length === 0) throw new AppError("NOT_FOUND", MESSAGING_MESSAGES.userNotFound);
    const changed = blocked
      ? await tx.execute(sql`
          INSERT INTO user_blocks (blocker_id, blocked_id) VALUES (${viewer.id}, ${userId}) ON CONFLICT DO NOTHING`)
      : await tx.execute(sql`DELETE FROM user_blocks WHERE blocker_id = ${viewer.id} AND blocked_id = ${userId}`);
    if (!changed.rowCount) return;
    const conversation = await tx.execute<{ conversation_id: string }>(sql`
      SELECT conversation_id FROM conversation_members WHERE user_id = ${viewer.id} AND other_user_id = ${userId}`);
    const id = conversation.rows[0]?.conversation_id;
    if (id) await publishMessageEvent(tx, "message_updated", id, [viewer.id]);
  });
  return { blocked };
}
