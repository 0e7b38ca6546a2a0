import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "#server/context";
import { notFound } from "#server/lib/errors";
import { latestMail, mailboxHtml, mailJson } from "#server/features/dev/index";

/**
 * The instance operators' outbox: the mail Hearth recorded, for a signed-in user whose confirmed
 * email is in ADMIN_EMAILS. Everyone else, signed in or not, gets 404 as for a route that does not
 * exist. This is where mail waits when there is no SMTP_URL and the local /dev/mailbox is off.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const operators = new Set(ctx.config.adminEmails);
  const assertOperator = async (request: FastifyRequest) => {
    if (operators.size === 0) throw notFound();
    const viewer = await ctx.viewer(request);
    if (!viewer || !viewer.emailVerified || !operators.has(viewer.email.toLowerCase())) throw notFound();
  };

  app.get(
    "/api/admin/mailbox",
    { schema: { hide: true, querystring: z.object({ to: z.string().optional() }) } },
    async (request, reply) => {
      await assertOperator(request);
      reply.header("cache-control", "no-store");
      return mailJson(await latestMail(ctx.db, request.query.to));
    },
  );

  app.get("/admin/mailbox", { schema: { hide: true } }, async (request, reply) => {
    await assertOperator(request);
    const intro = ctx.config.smtpUrl
      ? "Messages Hearth sent, newest first."
      : "Messages Hearth recorded, newest first. No SMTP_URL is set, so none of them was sent: forward a link only to the person it is addressed to.";
    return reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .send(mailboxHtml(await latestMail(ctx.db), intro));
  });
};
