import { desc, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context";
import { mailMessages } from "../../db/schema/index";
import { notFound } from "../../lib/errors";
import { escapeHtml } from "../../lib/html";

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/** Escapes the text, then makes http(s) links clickable. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);
}

/**
 * The local outbox: every message the product sent, newest first. Only for requests from this
 * machine's loopback address (the socket's, not a forwarded header).
 */
export const devRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const assertLoopback = (remote: string | undefined) => {
    if (!remote || !LOOPBACK.has(remote)) throw notFound();
  };
  /** The 100 newest messages, to one address when given. */
  const latest = (to?: string) =>
    ctx.db
      .select()
      .from(mailMessages)
      .where(to ? sql`lower(${mailMessages.to}) = lower(${to})` : undefined)
      .orderBy(desc(mailMessages.createdAt))
      .limit(100);

  app.get(
    "/api/dev/mailbox",
    { schema: { hide: true, querystring: z.object({ to: z.string().optional() }) } },
    async (request) => {
      assertLoopback(request.socket.remoteAddress);
      const rows = await latest(request.query.to);
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
    },
  );

  app.get("/dev/mailbox", { schema: { hide: true } }, async (request, reply) => {
    assertLoopback(request.socket.remoteAddress);
    const rows = await latest();
    const items = rows
      .map(
        (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(m.to)}</strong> · ${escapeHtml(m.createdAt.toISOString().replace("T", " ").slice(0, 19))} UTC · ${escapeHtml(m.status)}</p>
  <pre>${linkify(m.text)}</pre>
</article>`,
      )
      .join("\n");
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailbox · Hearth</title>
<style>
body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1c1917;background:#fafaf9}
h1{font-size:1.5rem}article{background:#fff;border:1px solid #e7e5e4;border-radius:10px;padding:1rem 1.25rem;margin:1rem 0}
h2{font-size:1.1rem;margin:0 0 .25rem}.meta{color:#57534e;font-size:.875rem;margin:0 0 .75rem}
pre{white-space:pre-wrap;word-break:break-word;font:inherit;margin:0}a{color:#9a3412}
</style></head>
<body><main><h1>Mailbox</h1><p>Messages Hearth sent while no SMTP server is configured, newest first.</p>
${items || "<p>No messages yet.</p>"}
</main></body></html>`;
    return reply.type("text/html; charset=utf-8").header("cache-control", "no-store").send(html);
  });
};
