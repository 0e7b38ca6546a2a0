import { createHash } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { QueryResultRow } from "pg";
import { MESSAGE_LIMITS, MESSAGING_MESSAGES } from "#shared/messaging";
import type { ConversationDto, MessageDto } from "#shared/messaging.schemas";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { AppError } from "#server/lib/errors";
import { originalKeyOf, rowKeyOfUrl } from "#server/lib/uploads";
import {
  conversationSelect,
  notBlockedByMe,
  toConversationDto,
  toMessageDto,
  type ConversationRow,
  type MessageRow,
} from "./messages.dto";
import { publishMessageEvent, queueDigestCheck } from "./messages.events";
import { hitMessageLimits, requireMaySend } from "./messages.rules";

/**
 * Conversations and messages (issue 22, docs/decisions/0019-messages-and-reports.md). Everything
 * is read through the viewer's own conversation_members row: a conversation that is not theirs is
 * answered exactly as one that does not exist, whoever asks (site operators and community staff
 * included). Every change announces a hint on both people's `user:<id>` channels in its
 * transaction.
 */

type Req<T = object> = { ctx: AppContext; viewer: Viewer } & T;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const conversationNotFound = () => new AppError("NOT_FOUND", MESSAGING_MESSAGES.conversationNotFound);
const messageNotFound = () => new AppError("NOT_FOUND", MESSAGING_MESSAGES.messageNotFound);

// ---------------------------------------------------------------------------------------------
// Reading

const INBOX_CURSOR = /^(\d{4}-\d\d-\d\dT[\d:.]+Z)\|([0-9a-f-]{36})$/;

function decodeInboxCursor(cursor: string | undefined) {
  if (!cursor) return null;
  const m = INBOX_CURSOR.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!m || Number.isNaN(Date.parse(m[1]))) throw new AppError("VALIDATION", "Invalid cursor");
  return { at: m[1], id: m[2] };
}

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The viewer's inbox, newest first (one index scan of their conversation_members rows), with the
 * conversations of people they blocked left out; `q` keeps those whose other person's name or
 * username contains it. Answers the serialized page (built field by field by toConversationDto).
 * The first page without a search, what the inbox opens on, is kept per process under the viewer's
 * inbox version (migration 0029 moves it on every change the page could show): one primary-key
 * read answers it while nothing changed, and any change, made anywhere, is read at once.
 */
export async function findInbox(req: Req<{ q?: string; cursor?: string; limit: number }>): Promise<string> {
  if (req.cursor || req.q?.trim()) return JSON.stringify(await inboxPage(req));
  const { ctx, viewer, limit } = req;
  const version = await inboxVersion(ctx, viewer.id);
  const pages = inboxPagesOf(ctx);
  const key = `${viewer.id}:${limit}`;
  let kept = pages.get(key);
  if (kept?.version !== version) kept = { version, body: JSON.stringify(await inboxPage(req)) };
  // Most recently used last: the oldest is the first to go.
  pages.delete(key);
  if (pages.size >= INBOX_PAGES_KEPT) pages.delete(pages.keys().next().value!);
  pages.set(key, kept);
  return kept.body;
}

/** First pages kept per process (about 18 KB each for 30 conversations). */
const INBOX_PAGES_KEPT = 1_000;
const inboxPages = new WeakMap<AppContext, Map<string, { version: string; body: string }>>();
const inboxPagesOf = (ctx: AppContext) => {
  let pages = inboxPages.get(ctx);
  if (!pages) inboxPages.set(ctx, (pages = new Map()));
  return pages;
};

/** The viewer's inbox version ('0' until anything moved it). */
async function inboxVersion(ctx: AppContext, userId: string): Promise<string> {
  const res = await ctx.pool.query<{ version: string }>({
    name: "inbox_version",
    text: "SELECT version FROM inbox_versions WHERE user_id = $1",
    values: [userId],
  });
  return res.rows[0]?.version ?? "0";
}

async function inboxPage({ ctx, viewer, q, cursor, limit }: Req<{ q?: string; cursor?: string; limit: number }>) {
  const after = decodeInboxCursor(cursor);
  const search = q?.trim();
  // The unread total comes with the page (computed once); an empty page asks for it alone.
  const res = await prepared<ConversationRow & { unread_total: number }>(
    ctx,
    sql`
    ${conversationSelect(viewer.id, sql`${unreadSql(viewer.id)} AS unread_total,`)}
       AND cm.last_message_at IS NOT NULL
       AND ${notBlockedByMe(viewer.id, sql`cm.other_user_id`)}
       ${
         after
           ? sql`AND (cm.last_message_at < ${after.at}::timestamptz
                      OR (cm.last_message_at = ${after.at}::timestamptz AND cm.conversation_id > ${after.id}::uuid))`
           : sql``
       }
       ${
         search ? sql`AND (p.username ILIKE ${likePattern(search)} OR p.full_name ILIKE ${likePattern(search)})` : sql``
       }
     ORDER BY cm.last_message_at DESC NULLS LAST, cm.conversation_id
     LIMIT ${limit + 1}`,
  );
  const rows = res.rows.slice(0, limit);
  const last = rows[rows.length - 1];
  return {
    conversations: rows.map(toConversationDto),
    next_cursor:
      res.rows.length > limit && last?.last_message_at
        ? Buffer.from(`${new Date(last.last_message_at).toISOString()}|${last.id}`).toString("base64url")
        : null,
    unread: res.rows[0]?.unread_total ?? (await unreadConversations(ctx.db, viewer.id)),
  };
}

const dialect = new PgDialect();

/**
 * Runs a query as a named prepared statement (named by its text), as the session lookup does: the
 * inbox's plan takes far longer to make than to run, and a prepared statement keeps it per
 * connection.
 */
async function prepared<R extends QueryResultRow>(ctx: AppContext, query: SQL) {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `dm-${createHash("sha1").update(text).digest("base64url").slice(0, 16)}`;
  return ctx.pool.query<R>({ name, text, values: params });
}

/** Conversations with unread messages (not counting those of people the viewer blocked). */
export async function unreadConversations(db: Queryable, userId: string): Promise<number> {
  const res = await db.execute<{ n: number }>(sql`SELECT ${unreadSql(userId)} AS n`);
  return res.rows[0].n;
}

const unreadSql = (userId: string) => sql`(
  SELECT count(*)::int FROM conversation_members u
   WHERE u.user_id = ${userId} AND u.unread_count > 0 AND ${notBlockedByMe(userId, sql`u.other_user_id`)})`;

async function conversationFor(db: Queryable, viewerId: string, conversationId: string): Promise<ConversationDto> {
  if (!UUID.test(conversationId)) throw conversationNotFound();
  const res = await db.execute<ConversationRow>(sql`
    ${conversationSelect(viewerId)} AND cm.conversation_id = ${conversationId}::uuid`);
  if (!res.rows[0]) throw conversationNotFound();
  return toConversationDto(res.rows[0]);
}

/**
 * A page of a conversation, newest first, older pages by `before` (a message's position). While
 * the viewer blocks the other person, that person's messages are left out; unblocking shows them.
 */
export async function findConversation({
  ctx,
  viewer,
  conversationId,
  before,
  limit,
}: Req<{ conversationId: string; before?: string; limit: number }>) {
  const conversation = await conversationFor(ctx.db, viewer.id, conversationId);
  if (before !== undefined && !/^\d{1,18}$/.test(before)) throw new AppError("VALIDATION", "Invalid cursor");
  const res = await ctx.db.execute<MessageRow & { seq: string }>(sql`
    SELECT m.id, m.conversation_id, m.seq, m.sender_id, m.body, m.image_key, m.created_at, m.edited_at, m.deleted_at
      FROM direct_messages m
     WHERE m.conversation_id = ${conversationId}::uuid
       ${before ? sql`AND m.seq < ${before}::bigint` : sql``}
       ${conversation.blocked ? sql`AND m.sender_id <> ${conversation.other.id}` : sql``}
     ORDER BY m.seq DESC
     LIMIT ${limit + 1}`);
  const rows = res.rows.slice(0, limit);
  return {
    conversation,
    messages: rows.map(toMessageDto),
    next_cursor: res.rows.length > limit ? String(rows[rows.length - 1].seq) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Writing

/** The conversation of the pair, made if needed; `created` when this call made it. */
async function conversationOfPair(db: Queryable, a: string, b: string) {
  const made = await db.execute<{ id: string }>(sql`
    WITH c AS (
      INSERT INTO conversations (user_low, user_high) VALUES (least(${a}::text, ${b}::text), greatest(${a}::text, ${b}::text))
      ON CONFLICT (user_low, user_high) DO NOTHING
      RETURNING id)
    INSERT INTO conversation_members (conversation_id, user_id, other_user_id)
    SELECT c.id, x.u, x.o FROM c, (VALUES (${a}::text, ${b}::text), (${b}::text, ${a}::text)) AS x(u, o)
    RETURNING conversation_id AS id`);
  if (made.rows[0]) return { id: made.rows[0].id, created: true };
  const found = await existingConversation(db, a, b);
  if (!found) throw new AppError("CONFLICT", "Please try again");
  return { id: found, created: false };
}

async function existingConversation(db: Queryable, a: string, b: string): Promise<string | null> {
  const res = await db.execute<{ id: string }>(sql`
    SELECT id FROM conversations
     WHERE user_low = least(${a}::text, ${b}::text) AND user_high = greatest(${a}::text, ${b}::text)`);
  return res.rows[0]?.id ?? null;
}

/** The stored key of an image the sender uploaded themselves (personal upload, ready), or a 400. */
async function ownImageKey(db: Queryable, senderId: string, given: string | undefined): Promise<string | null> {
  if (!given) return null;
  const key = given.startsWith("/media/") ? rowKeyOfUrl(given)! : originalKeyOf(given);
  const res = await db.execute<{ key: string }>(sql`
    SELECT key FROM media_files
     WHERE key = ${key} AND owner_id = ${senderId} AND purpose = 'personal' AND status = 'ready'
       AND content_type LIKE 'image/%' AND starts_with(key, ${`user-uploads/${senderId}/`})`);
  if (!res.rows[0]) throw new AppError("VALIDATION", MESSAGING_MESSAGES.imageInvalid, { field: "image_key" });
  return key;
}

type SendInput = { body: string; image_key?: string };

/**
 * Adds a message in the transaction `tx`, with the conversation row locked first so messages of one
 * conversation take their positions in commit order. Moves both people's inbox rows (the sender has
 * read everything up to their own message; the other gains an unread one), queues the digest check
 * when the other's unread messages start waiting, and announces `message_new` to both.
 */
async function insertMessage(
  tx: Queryable,
  conversationId: string,
  senderId: string,
  otherId: string,
  input: SendInput & { imageKey: string | null },
): Promise<MessageRow> {
  await tx.execute(sql`SELECT 1 FROM conversations WHERE id = ${conversationId}::uuid FOR UPDATE`);
  const res = await tx.execute<MessageRow & { started: boolean }>(sql`
    WITH m AS (
      INSERT INTO direct_messages (conversation_id, sender_id, body, image_key)
      VALUES (${conversationId}::uuid, ${senderId}, ${input.body}, ${input.imageKey})
      RETURNING *
    ), c AS (
      UPDATE conversations SET last_message_id = m.id, last_message_at = m.created_at
        FROM m WHERE conversations.id = m.conversation_id
    ), s AS (
      UPDATE conversation_members cm
         SET last_message_at = m.created_at, last_read_seq = m.seq, unread_count = 0, unread_since = NULL
        FROM m WHERE cm.conversation_id = m.conversation_id AND cm.user_id = ${senderId}
    ), r AS (
      UPDATE conversation_members cm
         SET last_message_at = m.created_at, unread_count = cm.unread_count + 1,
             unread_since = coalesce(cm.unread_since, m.created_at)
        FROM m WHERE cm.conversation_id = m.conversation_id AND cm.user_id = ${otherId}
      RETURNING cm.unread_since = m.created_at AS started
    )
    SELECT m.id, m.conversation_id, m.sender_id, m.body, m.image_key, m.created_at, m.edited_at, m.deleted_at,
           coalesce((SELECT started FROM r), false) AS started
      FROM m`);
  const row = res.rows[0];
  if (row.started) await queueDigestCheck(tx, otherId);
  await publishMessageEvent(tx, "message_new", conversationId, [senderId, otherId]);
  return row;
}

/**
 * Opens (finds, or starts when every rule allows) the conversation with a person, and sends the
 * first message when one is given. Finding an existing conversation needs no rule: it is already
 * the viewer's to read.
 */
export async function openConversation({
  ctx,
  viewer,
  input,
}: Req<{ input: { user_id: string; body?: string; image_key?: string } }>) {
  const other = input.user_id;
  const withMessage = Boolean(input.body || input.image_key);
  const existing = await existingConversation(ctx.db, viewer.id, other);
  if (!existing || withMessage) {
    const { newAccount } = await requireMaySend(ctx.db, viewer.id, other, !existing);
    await hitMessageLimits(ctx, viewer.id, newAccount, { message: withMessage, starting: !existing });
  }
  const id = await ctx.db.transaction(async (tx) => {
    const { id } = existing ? { id: existing } : await conversationOfPair(tx, viewer.id, other);
    if (withMessage) {
      const imageKey = await ownImageKey(tx, viewer.id, input.image_key);
      await insertMessage(tx, id, viewer.id, other, { body: input.body ?? "", imageKey });
    }
    return id;
  });
  return conversationFor(ctx.db, viewer.id, id);
}

/** The viewer's side of a conversation (404 when it is not theirs). */
async function sideOf(db: Queryable, viewerId: string, conversationId: string) {
  if (!UUID.test(conversationId)) throw conversationNotFound();
  const res = await db.execute<{ other_user_id: string }>(sql`
    SELECT other_user_id FROM conversation_members
     WHERE conversation_id = ${conversationId}::uuid AND user_id = ${viewerId}`);
  if (!res.rows[0]) throw conversationNotFound();
  return res.rows[0].other_user_id;
}

export async function sendMessage({
  ctx,
  viewer,
  conversationId,
  input,
}: Req<{ conversationId: string; input: SendInput }>): Promise<MessageDto> {
  const other = await sideOf(ctx.db, viewer.id, conversationId);
  const { newAccount } = await requireMaySend(ctx.db, viewer.id, other, false);
  await hitMessageLimits(ctx, viewer.id, newAccount, { message: true, starting: false });
  const row = await ctx.db.transaction(async (tx) => {
    const imageKey = await ownImageKey(tx, viewer.id, input.image_key);
    return insertMessage(tx, conversationId, viewer.id, other, { ...input, imageKey });
  });
  return toMessageDto(row);
}

/**
 * Marks the conversation read up to a message (default: the newest) for the viewer; never moves the
 * mark backwards. Their unread count and its start are recounted from the messages; both people are
 * told (the viewer's other tabs, the other's seen marks). Answers the viewer's unread conversations.
 */
export async function markConversationRead({
  ctx,
  viewer,
  conversationId,
  messageId,
}: Req<{ conversationId: string; messageId?: string }>) {
  const other = await sideOf(ctx.db, viewer.id, conversationId);
  if (messageId !== undefined && !UUID.test(messageId)) throw messageNotFound();
  await ctx.db.transaction(async (tx) => {
    const target = await tx.execute<{ seq: string | null }>(sql`
      SELECT ${
        messageId
          ? sql`(SELECT seq FROM direct_messages WHERE id = ${messageId}::uuid AND conversation_id = ${conversationId}::uuid)`
          : sql`(SELECT max(seq) FROM direct_messages WHERE conversation_id = ${conversationId}::uuid)`
      } AS seq`);
    const seq = target.rows[0]?.seq;
    if (seq === null || seq === undefined) {
      if (messageId) throw messageNotFound();
      return;
    }
    const res = await tx.execute<{ id: string }>(sql`
      UPDATE conversation_members cm
         SET last_read_seq = ${seq}::bigint, ${recountUnread(sql`${seq}::bigint`)}
       WHERE cm.conversation_id = ${conversationId}::uuid AND cm.user_id = ${viewer.id}
         AND cm.last_read_seq < ${seq}::bigint
      RETURNING cm.conversation_id AS id`);
    if (res.rows[0]) await publishMessageEvent(tx, "message_read", conversationId, [viewer.id, other]);
  });
  return { unread: await unreadConversations(ctx.db, viewer.id) };
}

/**
 * SQL SET list for conversation_members `cm`: its unread count and the time the oldest unread
 * message arrived, recounted from the other person's messages after `readSeq` (deleted ones not counted).
 */
const recountUnread = (readSeq: SQL) => sql`
  unread_count = (SELECT count(*) FROM direct_messages d
                   WHERE d.conversation_id = cm.conversation_id AND d.sender_id = cm.other_user_id
                     AND d.seq > ${readSeq} AND d.deleted_at IS NULL),
  unread_since = (SELECT min(d.created_at) FROM direct_messages d
                   WHERE d.conversation_id = cm.conversation_id AND d.sender_id = cm.other_user_id
                     AND d.seq > ${readSeq} AND d.deleted_at IS NULL)`;

/** The viewer's own message, locked, or 404 (not theirs to read) / 403 (the other person's). */
async function ownMessage(tx: Queryable, viewerId: string, messageId: string) {
  if (!UUID.test(messageId)) throw messageNotFound();
  const res = await tx.execute<MessageRow & { in_window: boolean; other_user_id: string }>(sql`
    SELECT m.id, m.conversation_id, m.sender_id, m.body, m.image_key, m.created_at, m.edited_at, m.deleted_at,
           m.created_at > now() - make_interval(secs => ${MESSAGE_LIMITS.editWindowSeconds}) AS in_window,
           cm.other_user_id
      FROM direct_messages m
      JOIN conversation_members cm ON cm.conversation_id = m.conversation_id AND cm.user_id = ${viewerId}
     WHERE m.id = ${messageId}::uuid
       FOR UPDATE OF m`);
  const row = res.rows[0];
  if (!row || row.deleted_at) throw messageNotFound();
  if (row.sender_id !== viewerId) throw new AppError("FORBIDDEN", "Insufficient permissions");
  return row;
}

export async function editMessage({
  ctx,
  viewer,
  messageId,
  body,
}: Req<{ messageId: string; body: string }>): Promise<MessageDto> {
  const row = await ctx.db.transaction(async (tx) => {
    const m = await ownMessage(tx, viewer.id, messageId);
    if (!m.in_window) throw new AppError("FORBIDDEN", MESSAGING_MESSAGES.editWindowPassed);
    const res = await tx.execute<MessageRow>(sql`
      UPDATE direct_messages SET body = ${body}, edited_at = now() WHERE id = ${m.id}::uuid
      RETURNING id, conversation_id, sender_id, body, image_key, created_at, edited_at, deleted_at`);
    await publishMessageEvent(tx, "message_updated", m.conversation_id, [viewer.id, m.other_user_id]);
    return res.rows[0];
  });
  return toMessageDto(row);
}

/**
 * Deletes one's own message: the row stays as a tombstone (its place in the conversation), its text
 * and image go. The image's file goes too unless another message still shows it; the other
 * person's unread count is recounted.
 */
export async function deleteMessage({ ctx, viewer, messageId }: Req<{ messageId: string }>): Promise<MessageDto> {
  const row = await ctx.db.transaction(async (tx) => {
    const m = await ownMessage(tx, viewer.id, messageId);
    const res = await tx.execute<MessageRow>(sql`
      UPDATE direct_messages SET body = '', image_key = NULL, deleted_at = now() WHERE id = ${m.id}::uuid
      RETURNING id, conversation_id, sender_id, body, image_key, created_at, edited_at, deleted_at`);
    if (m.image_key) {
      await tx.execute(sql`
        DELETE FROM media_files f
         WHERE f.key = ${m.image_key} AND f.owner_id = ${viewer.id}
           AND NOT EXISTS (SELECT 1 FROM direct_messages d WHERE d.image_key = f.key)`);
    }
    await tx.execute(sql`
      UPDATE conversation_members cm
         SET ${recountUnread(sql`cm.last_read_seq`)}
       WHERE cm.conversation_id = ${m.conversation_id}::uuid AND cm.user_id = ${m.other_user_id}
         AND cm.unread_count > 0`);
    await publishMessageEvent(tx, "message_updated", m.conversation_id, [viewer.id, m.other_user_id]);
    return res.rows[0];
  });
  return toMessageDto(row);
}
