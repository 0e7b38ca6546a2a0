import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "#server/context";
import { notFound } from "#server/lib/errors";
import { isLocalRequest, latestMail, mailboxHtml, mailJson } from "./outbox";

/**
 * The local outbox: every message the product sent, newest first. Only when DEV_MAILBOX is on, and
 * only for requests made on this machine (loopback socket, loopback Host, no forwarding header), so
 * never through a reverse proxy, even one on the same machine. Anyone else gets 404.
 */
export const devRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/dev/mailbox",
    { schema: { hide: true, querystring: z.object({ to: z.string().optional() }) } },
    async (request, reply) => {
      if (!isLocalRequest(ctx.config, request)) throw notFound();
      reply.header("cache-control", "no-store");
      return mailJson(await latestMail(ctx.db, request.query.to));
    },
  );

  app.get("/dev/mailbox", { schema: { hide: true } }, async (request, reply) => {
    if (!isLocalRequest(ctx.config, request)) throw notFound();
    const html = mailboxHtml(
      await latestMail(ctx.db),
      "Messages Hearth sent, newest first (shown to this machine only; without SMTP_URL they are not sent).",
    );
    return reply.type("text/html; charset=utf-8").header("cache-control", "no-store").send(html);
  });
};
