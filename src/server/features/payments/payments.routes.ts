import type { FastifyInstance } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  BILLING_INTERVALS,
  CHECKOUT_STATUSES,
  checkoutInputSchema,
  ENTITLEMENT_STATUSES,
  PAYMENT_MESSAGES as PM,
  PAYMENT_PROVIDERS,
  PRODUCT_KINDS,
  RECURRING_INTERVALS,
} from "#shared/payments";
import type { AppContext } from "#server/context";
import { AppError } from "#server/lib/errors";
import { errorResponses } from "#server/lib/schemas";
import { checkoutView, payWithSimulatedCard, startCheckout } from "./checkout.service";
import { receiveEvent } from "./events";
import { paymentProvider } from "./provider-registry";
import { billingOverview, changePlan, portalLink, setCancellation } from "./subscriptions.service";

const checkoutDto = z.object({
  id: z.string(),
  status: z.enum(CHECKOUT_STATUSES),
  provider: z.enum(PAYMENT_PROVIDERS),
  return_to: z.string(),
  product: z.object({
    kind: z.enum(PRODUCT_KINDS),
    name: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    interval: z.enum(BILLING_INTERVALS),
    trial_days: z.number().int(),
    community: z.object({ id: z.string(), slug: z.string(), name: z.string() }).nullable(),
  }),
});

const communityRef = z.object({ id: z.string(), slug: z.string(), name: z.string(), icon_url: z.string().nullable() });
const subscriptionDto = z.object({
  id: z.string(),
  kind: z.enum(["community", "creator_plan"]),
  status: z.enum(ENTITLEMENT_STATUSES),
  open: z.boolean(),
  community: communityRef.nullable(),
  tier: z.object({ id: z.string(), name: z.string() }).nullable(),
  amount: z.number().int(),
  currency: z.string(),
  interval: z.enum(BILLING_INTERVALS),
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  trial_ends_at: z.string().nullable(),
  grace_ends_at: z.string().nullable(),
  next_charge_at: z.string().nullable(),
});
const billingDto = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  subscriptions: z.array(subscriptionDto),
  purchases: z.array(
    z.object({
      id: z.string(),
      status: z.enum(ENTITLEMENT_STATUSES),
      course: z.object({ id: z.string(), title: z.string() }).nullable(),
      community: communityRef.nullable(),
      amount: z.number().int(),
      currency: z.string(),
      purchased_at: z.string(),
    }),
  ),
  payments: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(["charge", "refund"]),
      status: z.enum(["succeeded", "failed"]),
      amount: z.number().int(),
      currency: z.string(),
      description: z.string(),
      receipt_url: z.string().nullable(),
      created_at: z.string(),
      community_name: z.string().nullable(),
    }),
  ),
});
const idParams = z.object({ id: z.string() });

/**
 * The webhook, in a scope of its own where a JSON body stays the raw bytes: the signature is over
 * them. Anything unsigned, badly signed or of the other mode (test/live) gets a 400 and nothing is
 * stored; a signed event is stored once and queued, and Stripe gets its 200 at once.
 */
async function webhookRoute(app: FastifyInstance, ctx: AppContext) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
  app.post(
    "/api/payments/webhook",
    {
      config: { crossSite: true },
      schema: {
        tags: ["payments"],
        summary: "Stripe webhook: verified over the raw body, stored once by event id, processed through the job queue",
        hide: false,
      },
    },
    async (request, reply) => {
      const provider = await paymentProvider(ctx);
      if (provider.name !== "stripe") throw new AppError("NOT_FOUND", PM.stripeOff);
      const signature = request.headers["stripe-signature"];
      let event;
      try {
        if (!Buffer.isBuffer(request.body)) throw new Error("no body");
        event = provider.verifyEvent(request.body, typeof signature === "string" ? signature : undefined);
      } catch {
        throw new AppError("BAD_REQUEST", PM.badSignature);
      }
      if (event.livemode !== provider.livemode)
        throw new AppError("BAD_REQUEST", `This server takes ${provider.livemode ? "live" : "test"} mode events only`);
      const stored = await receiveEvent(ctx, provider, event);
      return reply.send({ received: true, duplicate: !stored });
    },
  );
}

export const paymentRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(async (scope) => webhookRoute(scope as unknown as FastifyInstance, ctx));

  app.post(
    "/api/billing/checkout",
    {
      schema: {
        tags: ["payments"],
        summary:
          "Start a checkout for a community tier (and interval) or a sold course; the amount is the server's stored price. Answers where to send the browser (Stripe Checkout, or the simulated card form)",
        body: checkoutInputSchema,
        response: {
          201: z.object({ checkout_id: z.string(), url: z.string(), provider: z.enum(PAYMENT_PROVIDERS) }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const viewer = await ctx.requireViewer(request);
      return reply.status(201).send(await startCheckout(ctx, viewer, request.body));
    },
  );

  app.get(
    "/api/billing/checkout/:id",
    {
      schema: {
        tags: ["payments"],
        summary: "One of the viewer's checkouts: what it sells and whether the provider has confirmed it",
        params: idParams,
        response: { 200: checkoutDto, ...errorResponses },
      },
    },
    async (request) => checkoutView(ctx, await ctx.requireViewer(request), request.params.id),
  );

  app.post(
    "/api/billing/checkout/:id/simulated-payment",
    {
      schema: {
        tags: ["payments"],
        summary:
          "Simulated provider only: the card form was submitted (no card data is sent). The payment is confirmed through the event queue, like a webhook",
        params: idParams,
        response: { 202: checkoutDto, ...errorResponses },
      },
    },
    async (request, reply) => {
      const viewer = await ctx.requireViewer(request);
      return reply.status(202).send(await payWithSimulatedCard(ctx, viewer, request.params.id));
    },
  );

  app.get(
    "/api/billing",
    {
      schema: {
        tags: ["payments"],
        summary: "The viewer's subscriptions, course purchases and payments (with receipts)",
        response: { 200: billingDto, ...errorResponses },
      },
    },
    async (request) => billingOverview(ctx, await ctx.requireViewer(request)),
  );

  for (const [path, cancel, summary] of [
    ["cancel", true, "Cancel at the end of the paid period (access stays until then)"],
    ["resume", false, "Take back a scheduled cancellation"],
  ] as const) {
    app.post(
      `/api/billing/subscriptions/:id/${path}`,
      {
        schema: {
          tags: ["payments"],
          summary,
          params: idParams,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        await setCancellation(ctx, await ctx.requireViewer(request), request.params.id, cancel);
        return reply.status(204).send(null);
      },
    );
  }

  app.post(
    "/api/billing/subscriptions/:id/change",
    {
      schema: {
        tags: ["payments"],
        summary: "Change plan: another tier or interval of the same community, at its current price (prorated)",
        params: idParams,
        body: z.object({ tier_id: z.uuid(), interval: z.enum(RECURRING_INTERVALS) }).strict(),
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await changePlan(ctx, await ctx.requireViewer(request), request.params.id, request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/api/billing/portal",
    {
      schema: {
        tags: ["payments"],
        summary: "A link to the provider's customer portal (Stripe): card, invoices, cancel",
        response: { 200: z.object({ url: z.string() }), ...errorResponses },
      },
    },
    async (request) => portalLink(ctx, await ctx.requireViewer(request)),
  );
};
