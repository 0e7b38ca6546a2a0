import { desc, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { isLoopbackAddress, isLoopbackHost, type Config } from "#server/config";
import type { Db } from "#server/db/client";
import { mailMessages } from "#server/db/schema/index";
import { escapeHtml } from "#server/lib/html";

/**
 * The outbox: every message Hearth recorded (mail_messages), newest first. Served two ways: the
 * local /dev/mailbox for a developer on the machine itself, and /admin/mailbox for the instance's
 * operators, signed in.
 */

/** Headers a reverse proxy adds: a request carrying any of them did not come from this machine's user. */
const FORWARDING_HEADERS = ["forwarded", "via", "x-real-ip", "true-client-ip", "cf-connecting-ip", "x-client-ip"];

/**
 * Whether the local outbox may answer: DEV_MAILBOX is on, the TCP peer is a loopback address, the
 * request names this machine as its host (no DNS rebinding), and no proxy forwarded it (a reverse
 * proxy on the same machine connects from loopback too, but adds forwarding headers).
 */
export function isLocalRequest(config: Config, request: FastifyRequest): boolean {
  if (!config.devMailbox) return false;
  const peer = request.socket.remoteAddress;
  if (!peer || !isLoopbackAddress(peer)) return false;
  const headers = Object.keys(request.headers);
  if (headers.some((h) => h.startsWith("x-forwarded-") || FORWARDING_HEADERS.includes(h))) return false;
  const host = request.headers.host;
  if (!host) return false;
  try {
    return isLoopbackHost(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}

/** The 100 newest messages, to one address when given. */
export function latestMail(db: Db, to?: string) {
  return db
    .select()
    .from(mailMessages)
    .where(to ? sql`lower(${mailMessages.to}) = lower(${to})` : undefined)
    .orderBy(desc(mailMessages.createdAt))
    .limit(100);
}

type MailRow = Awaited<ReturnType<typeof latestMail>>[number];

export function mailJson(rows: MailRow[]) {
  return {
    messages: rows.map((m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      text: m.text,
      status: m.status,
      created_at: m.createdAt.toISOString(),
    })),
  };
}

/** Escapes the text, then makes http(s) links clickable. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);
}

export function mailboxHtml(rows: MailRow[], intro: string): string {
  const items = rows
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(m.to)}</strong> · ${escapeHtml(m.createdAt.toISOString().replace("T", " ").slice(0, 19))} UTC · ${escapeHtml(m.status)}</p>
  <pre>${linkify(m.text)}</pre>
</article>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Mailbox · Hearth</title>
<style>
body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1c1917;background:#fafaf9}
h1{font-size:1.5rem}article{background:#fff;border:1px solid #e7e5e4;border-radius:10px;padding:1rem 1.25rem;margin:1rem 0}
h2{font-size:1.1rem;margin:0 0 .25rem}.meta{color:#57534e;font-size:.875rem;margin:0 0 .75rem}
pre{white-space:pre-wrap;word-break:break-word;font:inherit;margin:0}a{color:#9a3412}
</style></head>
<body><main><h1>Mailbox</h1><p>${escapeHtml(intro)}</p>
${items || "<p>No messages yet.</p>"}
</main></body></html>`;
}

/** The start-up line saying whether the outbox is served, and where. */
export function outboxStartupLine(config: Config, listenUrl: string): { level: "info" | "warn"; text: string } {
  const sending = config.smtpUrl ? "mail is sent through SMTP_URL" : "no SMTP_URL, so mail is not sent";
  if (config.devMailbox) {
    const base = isLoopbackHost(new URL(config.publicUrl).hostname) ? config.publicUrl : listenUrl;
    return {
      level: "info",
      text: `Mail outbox: on at ${base}/dev/mailbox for requests from this machine only, never through a proxy (DEV_MAILBOX); ${sending}`,
    };
  }
  const admin = `${config.publicUrl}/admin/mailbox`;
  const where = config.adminEmails.length
    ? `operators (ADMIN_EMAILS) read it at ${admin}`
    : `set ADMIN_EMAILS to read it at ${admin}`;
  return config.smtpUrl
    ? { level: "info", text: `Mail outbox: /dev/mailbox off (DEV_MAILBOX); ${sending}; ${where}` }
    : { level: "warn", text: `Mail outbox: /dev/mailbox off (DEV_MAILBOX); ${sending}: ${where}` };
}
