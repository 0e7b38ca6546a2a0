import { sql } from "drizzle-orm";
import { MSG } from "#shared/messages";
import { MESSAGING_MESSAGES, messagesHref } from "#shared/messaging";
import { NOTIFICATION_LIMITS, notificationHref, type NotificationType } from "#shared/notifications";
import type { AppContext, Viewer } from "#server/context";
import { takeMessagesForDigest, type DigestConversation } from "#server/features/messages/index";
import { userCardSql, type UserCard } from "#server/features/posts/index";
import { AppError } from "#server/lib/errors";
import { escapeHtml } from "#server/lib/html";
import type { JobHandler } from "#server/lib/jobs";
import { DIGEST_QUEUE, notificationVisible, readUnsubscribeToken, unsubscribeToken } from "#server/lib/notifications";
import { publish, userChannel } from "#server/lib/realtime";

type NotificationRow = {
  id: string;
  type: NotificationType;
  title: string;
  body: string;
  community_id: string | null;
  community: { id: string; slug: string; name: string; icon_url: string | null } | null;
  post_id: string | null;
  occurrence_id: string | null;
  tab: string | null;
  actor: UserCard | null;
  is_read: boolean;
  read_at: string | null;
  created_at: string;
};

const notFound = () => new AppError("NOT_FOUND", "Notification not found");

/**
 * Unread, visible, in-app notifications of a user, counted up to the cap; kept per process
 * (ctx.unreadCache, lib/unread-cache.ts) with the communities of all their unread ones, visible or
 * not, whose changes drop it.
 */
function unreadCount(ctx: AppContext, userId: string): Promise<number> {
  return ctx.unreadCache.get(userId, async () => {
    const res = await ctx.db.execute<{ n: number; communities: string[] }>(sql`
      SELECT (SELECT count(*)::int FROM (
                SELECT 1 FROM notifications n
                 WHERE n.user_id = ${userId} AND n.is_read = false AND n.in_app AND ${notificationVisible}
                 LIMIT ${NOTIFICATION_LIMITS.countCap}) x) AS n,
             ARRAY(SELECT DISTINCT n.community_id::text FROM notifications n
                    WHERE n.user_id = ${userId} AND n.is_read = false AND n.in_app
                      AND n.community_id IS NOT NULL) AS communities`);
    return { count: res.rows[0].n, communities: res.rows[0].communities };
  });
}

const CURSOR_RE = /^(\d{4}-\d\d-\d\dT[\d:.]+Z)\|([0-9a-f-]{36})$/;

function decodeCursor(cursor: string | undefined): { at: string; id: string } | null {
  if (!cursor) return null;
  const raw = Buffer.from(cursor, "base64url").toString("utf8");
  const m = CURSOR_RE.exec(raw);
  if (!m || Number.isNaN(Date.parse(m[1]))) throw new AppError("VALIDATION", "Invalid cursor");
  return { at: m[1], id: m[2] };
}

const encodeCursor = (row: { created_at: string; id: string }) =>
  Buffer.from(`${new Date(row.created_at).toISOString()}|${row.id}`).toString("base64url");

/** The viewer's notifications, newest first, with who acted and where, and the unread count. */
export async function findNotifications({
  ctx,
  viewer,
  filter,
  limit,
  cursor,
}: {
  ctx: AppContext;
  viewer: Viewer;
  filter: "all" | "unread";
  limit: number;
  cursor?: string;
}) {
  const after = decodeCursor(cursor);
  const res = await ctx.db.execute<NotificationRow>(sql`
    SELECT n.id, n.type, n.title, n.body, n.community_id, n.data->>'post_id' AS post_id,
           n.data->>'occurrence_id' AS occurrence_id, n.data->>'tab' AS tab, n.is_read, n.read_at, n.created_at,
           (SELECT json_build_object('id', c.id, 'slug', c.slug, 'name', c.name, 'icon_url', c.icon_url)
              FROM communities c WHERE c.id = n.community_id) AS community,
           ${sql.raw(userCardSql("n.actor_id"))} AS actor
      FROM notifications n
     WHERE n.user_id = ${viewer.id} AND n.in_app
       ${filter === "unread" ? sql`AND n.is_read = false` : sql``}
       ${after ? sql`AND (n.created_at, n.id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
       AND ${notificationVisible}
     ORDER BY n.created_at DESC, n.id DESC
     LIMIT ${limit + 1}`);
  const rows = res.rows.slice(0, limit);
  const items = rows.map(({ occurrence_id: occurrenceId, tab, ...r }) => ({
    ...r,
    read_at: r.read_at ? new Date(r.read_at).toISOString() : null,
    created_at: new Date(r.created_at).toISOString(),
    href: notificationHref({ ...r, occurrence_id: occurrenceId, tab }),
  }));
  return {
    items,
    next_cursor: res.rows.length > limit ? encodeCursor(rows[rows.length - 1]) : null,
    unread_count: await unreadCount(ctx, viewer.id),
  };
}

export async function findUnreadCount({ ctx, viewer }: { ctx: AppContext; viewer: Viewer }) {
  return { unread_count: await unreadCount(ctx, viewer.id) };
}

/** Marks one of the viewer's notifications read (again is fine); answers the new unread count. */
export async function markRead({ ctx, viewer, id }: { ctx: AppContext; viewer: Viewer; id: string }) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound();
  await ctx.db.transaction(async (tx) => {
    const res = await tx.execute<{ id: string; changed: boolean }>(sql`
      WITH target AS (
        SELECT n.id, n.is_read FROM notifications n
         WHERE n.id = ${id}::uuid AND n.user_id = ${viewer.id} AND n.in_app AND ${notificationVisible}
      ), done AS (
        UPDATE notifications SET is_read = true, read_at = now()
         WHERE id IN (SELECT id FROM target WHERE NOT is_read)
      )
      SELECT id, NOT is_read AS changed FROM target`);
    if (res.rows.length === 0) throw notFound();
    // The viewer's other tabs update their badge.
    if (res.rows[0].changed) await publish(tx, userChannel(viewer.id), { type: "read" });
  });
  // Read-your-writes here; other processes hear the database (migration 0030).
  ctx.unreadCache.forgetUser(viewer.id);
  return { unread_count: await unreadCount(ctx, viewer.id) };
}

export async function markAllRead({ ctx, viewer }: { ctx: AppContext; viewer: Viewer }) {
  const updated = await ctx.db.transaction(async (tx) => {
    const res = await tx.execute(sql`
      UPDATE notifications SET is_read = true, read_at = now() WHERE user_id = ${viewer.id} AND is_read = false`);
    if (res.rowCount) await publish(tx, userChannel(viewer.id), { type: "read" });
    return res.rowCount ?? 0;
  });
  ctx.unreadCache.forgetUser(viewer.id);
  return { updated, unread_count: 0 };
}

/** Turns email notifications off for whoever the token was made for. */
export async function unsubscribe({ ctx, token }: { ctx: AppContext; token: string }) {
  const userId = readUnsubscribeToken(ctx.config.authSecret, token);
  if (!userId) throw new AppError("BAD_REQUEST", MSG.unsubscribeLinkInvalid);
  const res = await ctx.db.execute(sql`
    INSERT INTO user_notification_settings (user_id, email_enabled) SELECT id, false FROM "user" WHERE id = ${userId}
    ON CONFLICT (user_id) DO UPDATE SET email_enabled = false, updated_at = now()`);
  if ((res.rowCount ?? 0) === 0) throw new AppError("BAD_REQUEST", MSG.unsubscribeLinkInvalid);
  return { email_enabled: false as const };
}

// ---------------------------------------------------------------------------------------------
// Email digests

type DigestRow = {
  id: string;
  title: string;
  body: string;
  community_id: string | null;
  community_name: string | null;
  post_id: string | null;
  occurrence_id: string | null;
  tab: string | null;
};

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many.replace("{n}", String(n)));

/**
 * Mails a user their unread, not yet mailed notifications as one message, then marks them mailed:
 * one transaction with the settings row locked, so a notification made meanwhile schedules the
 * next digest (SPEC §9 defaults; issue 7: at most every 15 minutes).
 */
export async function sendDigest(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const settings = await tx.execute<{ on: boolean; email: string }>(sql`
      SELECT s.global_enabled AND s.email_enabled AS on, u.email
        FROM user_notification_settings s JOIN "user" u ON u.id = s.user_id
       WHERE s.user_id = ${userId} FOR UPDATE OF s`);
    const user = settings.rows[0];
    if (!user) return;
    const finish = (sent: boolean) =>
      tx.execute(sql`
        UPDATE user_notification_settings
           SET digest_due_at = NULL ${sent ? sql`, last_digest_at = now()` : sql``}
         WHERE user_id = ${userId}`);
    if (!user.on) return void (await finish(false));
    const res = await tx.execute<DigestRow>(sql`
      SELECT n.id, n.title, n.body, n.community_id, n.data->>'post_id' AS post_id,
             n.data->>'occurrence_id' AS occurrence_id, n.data->>'tab' AS tab,
             (SELECT c.name FROM communities c WHERE c.id = n.community_id) AS community_name
        FROM notifications n
       WHERE n.user_id = ${userId} AND n.is_read = false AND n.emailed_at IS NULL
         AND n.created_at > now() - interval '7 days' AND ${notificationVisible}
       ORDER BY n.created_at DESC, n.id DESC
       LIMIT 500`);
    // Conversations whose unread messages waited 15 minutes (issue 22): who wrote, never what.
    const messages = await takeMessagesForDigest(tx, userId);
    if (res.rows.length === 0 && messages.length === 0) return void (await finish(false));
    if (res.rows.length > 0)
      await tx.execute(sql`
        UPDATE notifications SET emailed_at = now()
         WHERE id = ANY(${sql.param(res.rows.map((r) => r.id))}::uuid[])`);
    await ctx.mailer.send(digestMail(ctx, user.email, userId, res.rows, messages), { db: tx });
    await finish(true);
  });
}

function digestMail(
  ctx: AppContext,
  to: string,
  userId: string,
  rows: DigestRow[],
  messages: DigestConversation[] = [],
) {
  const base = ctx.config.publicUrl;
  const token = unsubscribeToken(ctx.config.authSecret, userId);
  const unsubscribeUrl = `${base}/notifications/unsubscribe?token=${token}`;
  const oneClickUrl = `${base}/api/notifications/unsubscribe?token=${token}`;
  const listed = rows.slice(0, NOTIFICATION_LIMITS.digestListed);
  const more = rows.length - listed.length;
  const subject =
    rows.length === 0
      ? "You have unread messages on Hearth"
      : plural(rows.length, "You have a new notification on Hearth", "You have {n} new notifications on Hearth");
  const chat = (m: DigestConversation) => `${base}${messagesHref(m.conversation_id)}`;
  const textMessages = messages.length
    ? [
        "",
        `${MESSAGING_MESSAGES.digestHeading}:`,
        ...messages.map((m) => `• ${MESSAGING_MESSAGES.digestLine(m.name, m.count)}\n  ${chat(m)}`),
      ]
    : [];
  const htmlMessages = messages.length
    ? `<p><strong>${escapeHtml(MESSAGING_MESSAGES.digestHeading)}</strong></p><ul style="padding-left:18px">${messages
        .map(
          (m) =>
            `<li style="margin:0 0 12px"><a href="${escapeHtml(chat(m))}">${escapeHtml(MESSAGING_MESSAGES.digestLine(m.name, m.count))}</a></li>`,
        )
        .join("")}</ul>`
    : "";
  const link = (r: DigestRow) => `${base}${notificationHref(r)}`;
  const where = (r: DigestRow) => (r.community_name ? ` (${r.community_name})` : "");

  const textItems = listed.map((r) => `• ${r.title}${where(r)}\n${r.body ? `  ${r.body}\n` : ""}  ${link(r)}`);
  const text = [
    subject.replace(" on Hearth", ":"),
    "",
    ...textItems,
    ...(more > 0 ? ["", plural(more, "…and 1 more.", "…and {n} more.")] : []),
    ...textMessages,
    "",
    `View all notifications: ${base}/notifications`,
    "",
    `You get this email because email notifications are on. Turn them off: ${unsubscribeUrl}`,
    "",
    "— Hearth",
  ].join("\n");

  const htmlItems = listed
    .map(
      (r) =>
        `<li style="margin:0 0 12px"><a href="${escapeHtml(link(r))}"><strong>${escapeHtml(r.title)}</strong></a>${escapeHtml(
          where(r),
        )}${r.body ? `<br><span style="color:#57534e">${escapeHtml(r.body)}</span>` : ""}</li>`,
    )
    .join("");
  const html =
    `<p>${escapeHtml(subject.replace(" on Hearth", ":"))}</p><ul style="padding-left:18px">${htmlItems}</ul>` +
    (more > 0 ? `<p>${escapeHtml(plural(more, "…and 1 more.", "…and {n} more."))}</p>` : "") +
    htmlMessages +
    `<p><a href="${escapeHtml(`${base}/notifications`)}">View all notifications</a></p>` +
    `<p style="color:#78716c;font-size:12px">You get this email because email notifications are on. ` +
    `<a href="${escapeHtml(unsubscribeUrl)}">Turn off email notifications</a></p><p>— Hearth</p>`;

  return {
    to,
    subject,
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${oneClickUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

export function notificationJobHandlers(ctx: AppContext): Record<string, JobHandler> {
  return {
    [DIGEST_QUEUE]: async (payload) => {
      if (typeof payload.userId === "string") await sendDigest(ctx, payload.userId);
    },
  };
}
