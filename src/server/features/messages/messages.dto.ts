import { sql, type SQL } from "drizzle-orm";
import { MESSAGE_LIMITS } from "#shared/messaging";
import type { ConversationDto, MessageDto } from "#shared/messaging.schemas";
import { variantKeys } from "#server/lib/uploads";
import { canSendSql } from "./messages.rules";

/** A message as stored (direct_messages), read with raw SQL. */
export type MessageRow = {
  id: string;
  conversation_id: string;
  sender_id: string;
  body: string;
  image_key: string | null;
  created_at: Date | string;
  edited_at: Date | string | null;
  deleted_at: Date | string | null;
};

const iso = (v: Date | string) => new Date(v).toISOString();

/** A message's image is shown in its medium variant, through the media route's access check. */
export const imageUrlOf = (key: string | null) =>
  key ? `/media/${key.endsWith(".webp") ? variantKeys(key.slice(0, -".webp".length)).medium : key}` : null;

/** The answer for a message: a deleted one keeps its place, with neither body nor image. */
export function toMessageDto(r: MessageRow): MessageDto {
  const deleted = r.deleted_at !== null;
  return {
    id: r.id,
    conversation_id: r.conversation_id,
    sender_id: r.sender_id,
    body: deleted ? "" : r.body,
    image_url: deleted ? null : imageUrlOf(r.image_key),
    created_at: iso(r.created_at),
    edited_at: r.edited_at ? iso(r.edited_at) : null,
    deleted,
  };
}

export type ConversationRow = {
  id: string;
  unread_count: number;
  last_message_at: Date | string | null;
  c_created_at: Date | string;
  other_user_id: string;
  username: string | null;
  full_name: string | null;
  avatar_url: string | null;
  m_id: string | null;
  m_sender_id: string | null;
  m_body: string | null;
  m_image_key: string | null;
  m_created_at: Date | string | null;
  m_edited_at: Date | string | null;
  m_deleted_at: Date | string | null;
  other_last_read_id: string | null;
  blocked: boolean;
  can_send: boolean;
};

/**
 * One query for any number of the viewer's conversations (`cm` is their side): the other person,
 * the last message (its preview), the other's read mark, whether they blocked them and whether they
 * may send now; `extra` adds columns (each followed by a comma). Append WHERE conditions, ORDER BY and LIMIT.
 */
export const conversationSelect = (me: string, extra: SQL = sql``) => sql`
  SELECT ${extra} cm.conversation_id AS id, cm.unread_count::int AS unread_count, cm.last_message_at,
         c.created_at AS c_created_at, cm.other_user_id, p.username, p.full_name, p.avatar_url,
         m.id AS m_id, m.sender_id AS m_sender_id, left(m.body, ${MESSAGE_LIMITS.previewChars}) AS m_body,
         m.image_key AS m_image_key, m.created_at AS m_created_at, m.edited_at AS m_edited_at,
         m.deleted_at AS m_deleted_at,
         -- The last message when they have read it (most conversations), else the newest they have.
         CASE WHEN m.seq <= o.last_read_seq THEN m.id
              ELSE (SELECT d.id FROM direct_messages d
                     WHERE d.conversation_id = cm.conversation_id AND d.seq <= o.last_read_seq
                     ORDER BY d.seq DESC LIMIT 1) END AS other_last_read_id,
         EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = ${me} AND b.blocked_id = cm.other_user_id) AS blocked,
         ${canSendSql(sql`${me}::text`, sql`cm.other_user_id`)} AS can_send
    FROM conversation_members cm
    JOIN conversations c ON c.id = cm.conversation_id
    JOIN conversation_members o ON o.conversation_id = cm.conversation_id AND o.user_id = cm.other_user_id
    LEFT JOIN direct_messages m ON m.id = c.last_message_id
    LEFT JOIN user_profiles p ON p.user_id = cm.other_user_id
   WHERE cm.user_id = ${me}`;

/** SQL: the viewer did not block the other person (their conversations leave the inbox while blocked). */
export const notBlockedByMe = (me: string, other: SQL) =>
  sql`NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = ${me} AND b.blocked_id = ${other})`;

export function toConversationDto(r: ConversationRow): ConversationDto {
  // While the viewer blocks the other person, that person's messages are not shown, the preview included.
  const hidden = r.blocked && r.m_sender_id === r.other_user_id;
  const last: MessageRow | null =
    r.m_id && !hidden
      ? {
          id: r.m_id,
          conversation_id: r.id,
          sender_id: r.m_sender_id!,
          body: r.m_body ?? "",
          image_key: r.m_image_key,
          created_at: r.m_created_at!,
          edited_at: r.m_edited_at,
          deleted_at: r.m_deleted_at,
        }
      : null;
  return {
    id: r.id,
    other: {
      id: r.other_user_id,
      username: r.username ?? "",
      full_name: r.full_name || r.username || "",
      avatar_url: r.avatar_url,
    },
    last_message: last ? toMessageDto(last) : null,
    unread_count: Number(r.unread_count),
    other_last_read_id: r.other_last_read_id,
    can_send: r.can_send,
    blocked: r.blocked,
    updated_at: iso(r.last_message_at ?? r.c_created_at),
  };
}
