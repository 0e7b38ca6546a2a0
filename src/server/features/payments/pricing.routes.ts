import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { pricingInputSchema } from "#shared/payments";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import { getPricing, listTiers, savePricing } from "./pricing.service";

const priceRef = z.object({ id: z.string(), amount: z.number().describe("minor units") }).nullable();
const tier = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  free: z.boolean(),
  trial_days: z.number(),
  position: z.number(),
  prices: z.object({ month: priceRef, year: priceRef }),
});
const tiersAnswer = z.object({ currency: z.string(), tiers: z.array(tier) });
const pricingAnswer = z.object({
  currency: z.string(),
  grace_days: z.number(),
  tiers: z.array(tier.extend({ subscribers: z.number().describe("open memberships on this tier") })),
});
const params = z.object({ communityId: z.string().min(1).max(120) });
const tags = ["payments"];

/** What an owner sells (issue 18): a community's tiers and prices. */
export const pricingRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/communities/:communityId/tiers",
    {
      schema: {
        tags,
        summary:
          "The community's tiers on sale, in order, with their active monthly and annual prices; a private community's to members, or with its invite code",
        params,
        querystring: z.object({ invite_code: z.string().min(1).max(100).optional() }),
        response: { 200: tiersAnswer, ...errorResponses },
      },
    },
    async (request) =>
      listTiers({
        ctx,
        viewer: await ctx.viewer(request),
        idOrSlug: request.params.communityId,
        inviteCode: request.query.invite_code,
      }),
  );

  app.get(
    "/api/communities/:communityId/pricing",
    {
      schema: {
        tags,
        summary: "The Pricing tab (owner, admin): tiers, prices, grace period and subscribers per tier",
        params,
        response: { 200: pricingAnswer, ...errorResponses },
      },
    },
    async (request) =>
      getPricing({ ctx, viewer: await ctx.requireViewer(request), idOrSlug: request.params.communityId }),
  );

  app.put(
    "/api/communities/:communityId/pricing",
    {
      schema: {
        tags,
        summary:
          "Save the Pricing tab (owner, admin): currency, grace period and up to 3 tiers; a changed price is a new price, subscribers keep theirs",
        params,
        body: pricingInputSchema,
        response: { 200: pricingAnswer, ...errorResponses },
      },
    },
    async (request) =>
      savePricing({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        input: request.body,
      }),
  );
};
