import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { PAYMENT_PROVIDERS } from "#shared/payments";
import type { AppContext } from "#server/context";

/** What the browser needs to know about this installation. */
export const publicConfigRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/config",
    {
      schema: {
        tags: ["health"],
        summary: "Public settings of this installation",
        response: {
          200: z.object({
            google_enabled: z.boolean(),
            site_url: z.string(),
            /** smtp: mail is sent; outbox: it waits at /dev/mailbox on this machine; held: no SMTP and
             * no local outbox (a public address), so it waits for the operators (/admin/mailbox). */
            mail_transport: z.enum(["outbox", "held", "smtp"]),
            /** simulated: the card forms stay in the browser and no money moves; stripe: Stripe Checkout. */
            payments_provider: z.enum(PAYMENT_PROVIDERS),
          }),
        },
      },
    },
    async (_req, reply) => {
      const mailTransport: "outbox" | "held" | "smtp" =
        ctx.mailer.transport === "smtp" ? "smtp" : ctx.config.devMailbox ? "outbox" : "held";
      reply.header("cache-control", "public, max-age=60");
      return {
        google_enabled: Boolean(ctx.config.google),
        site_url: ctx.config.publicUrl,
        mail_transport: mailTransport,
        payments_provider: ctx.config.payments.provider,
      };
    },
  );
};
