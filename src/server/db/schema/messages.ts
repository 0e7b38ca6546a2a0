import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { createdAt, textRef, ts, uuidPk, uuidRef } from "./columns";

// Direct messages (issue 22, docs/decisions/0019-messages-and-reports.md).

/**
 * A one-to-one conversation. The pair is stored in order (user_low < user_high) so there is one
 * conversation per pair. Only its two people ever read it.
 */
export const conversations = pgTable(
  "conversations",
  {
    id: uuidPk(),
    userLow: textRef("user_low", () => user.id),
    userHigh: textRef("user_high", () => user.id),
    /** The newest message (any state), for the inbox order and preview. */
    lastMessageId: uuid("last_message_id"),
    lastMessageAt: ts("last_message_at"),
    createdAt: createdAt(),
  },
  (t) => [
    check("conversations_pair_order", sql`${t.userLow} < ${t.userHigh}`),
    uniqueIndex("conversations_pair_key").on(t.userLow, t.userHigh),
  ],
);

/** Each person's side of a conversation: what they have read, their unread count, their inbox order. */
export const conversationMembers = pgTable(
  "conversation_members",
  {
    conversationId: uuidRef("conversation_id", () => conversations.id),
    userId: textRef("user_id", () => user.id),
    otherUserId: textRef("other_user_id", () => user.id),
    /** The newest message they have seen (sent/seen marks), by its sequence number. */
    lastReadSeq: bigint("last_read_seq", { mode: "number" }).notNull().default(0),
    unreadCount: bigint("unread_count", { mode: "number" }).notNull().default(0),
    /** Copied from the conversation so the inbox is one index scan per person. */
    lastMessageAt: ts("last_message_at"),
    /** When the oldest of their unread messages arrived (the digest looks for those older than 15 minutes). */
    unreadSince: ts("unread_since"),
    /** When an unread message of this conversation was last put in an email digest. */
    digestedAt: ts("digested_at"),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.conversationId] }),
    index("conversation_members_inbox_idx").on(t.userId, t.lastMessageAt.desc().nullsLast(), t.conversationId),
    index("conversation_members_unread_idx")
      .on(t.unreadSince)
      .where(sql`${t.unreadCount} > 0`),
  ],
);

export const directMessages = pgTable(
  "direct_messages",
  {
    id: uuidPk(),
    conversationId: uuidRef("conversation_id", () => conversations.id),
    /** Order within the conversation (a global sequence: cursors and read marks compare it). */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
    senderId: textRef("sender_id", () => user.id),
    body: text("body").notNull().default(""),
    /** An image from the uploads pipeline (its storage key), shown through the media route. */
    imageKey: text("image_key"),
    createdAt: createdAt(),
    editedAt: ts("edited_at"),
    deletedAt: ts("deleted_at"),
  },
  (t) => [index("direct_messages_conversation_idx").on(t.conversationId, t.seq.desc())],
);

/** A person blocking another: the blocked one cannot message them, and they stop seeing the blocked one's messages. */
export const userBlocks = pgTable(
  "user_blocks",
  {
    blockerId: textRef("blocker_id", () => user.id),
    blockedId: textRef("blocked_id", () => user.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index("user_blocks_blocked_idx").on(t.blockedId)],
);

/**
 * A person's inbox version: moved by triggers (migration 0029) whenever anything their inbox shows
 * may have changed (their conversations and the other people's read marks, a message edited or
 * deleted, a block, the other person's name, picture or message setting, either person's
 * memberships and bans). The inbox's first page is kept per process under it (messages.service.ts):
 * one primary-key read tells whether it is still the page. No foreign key: the row of a deleted
 * account is left behind, a few bytes.
 */
export const inboxVersions = pgTable("inbox_versions", {
  userId: text("user_id").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull().default(1),
});
