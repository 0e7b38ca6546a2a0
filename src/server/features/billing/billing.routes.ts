import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { PLAN_IDS, startTrialSchema } from "#shared/billing";
import type { AppContext } from "#server/context";
import { RATE_RULES } from "#server/lib/rate-limit";
import { errorResponses } from "#server/lib/schemas";
import { findPlan, startTrial } from "./billing.service";

const planDto = z.object({
  plan: z.enum(PLAN_IDS),
  trial_ends_at: z.string(),
  community: z.object({ id: z.string(), slug: z.string() }).nullable(),
});

export const billingRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/api/billing/trial",
    {
      schema: {
        tags: ["billing"],
        summary:
          "Start the creator's 14-day free trial (simulated: no card data is sent or charged) and create their paid community; once per account (409 after that, the same request_id answers what it made)",
        body: startTrialSchema,
        response: {
          200: planDto.extend({
            checkout_url: z.string().nullable().describe("Stripe Checkout, where the card is taken (null: simulated)"),
          }),
          201: planDto.extend({ checkout_url: z.string().nullable() }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const viewer = await ctx.requireViewer(request);
      // The trial makes a community: it draws on the same per-user budget as creating one.
      await ctx.rateLimiter.hit(`community-create:${viewer.id}`, RATE_RULES.communityCreatePerUser);
      const { created, ...plan } = await startTrial({ ctx, viewer, input: request.body });
      return reply.status(created ? 201 : 200).send(plan);
    },
  );

  app.get(
    "/api/billing/plan",
    {
      schema: {
        tags: ["billing"],
        summary: "The viewer's creator plan and trial, or null",
        response: { 200: planDto.nullable(), ...errorResponses },
      },
    },
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      return findPlan({ ctx, viewer });
    },
  );
};
