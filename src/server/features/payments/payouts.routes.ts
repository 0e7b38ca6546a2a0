import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { CONNECT_STATUSES, PAYMENT_PROVIDERS } from "#shared/payments";
import { PAYOUT_MODES } from "#shared/payouts";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import { connectPayouts, getPayouts, refreshPayouts } from "./payouts.service";

const payoutsDto = z.object({
  mode: z
    .enum(PAYOUT_MODES)
    .describe("instance: every payment goes to this Hearth's Stripe account; connect: to the owner's own account"),
  provider: z.enum(PAYMENT_PROVIDERS),
  status: z.enum(CONNECT_STATUSES),
  fee_percent: z.number().describe("the share of each payment the instance keeps (connect mode)"),
  account: z
    .object({ charges_enabled: z.boolean(), payouts_enabled: z.boolean(), details_submitted: z.boolean() })
    .nullable(),
});
const params = z.object({ communityId: z.string().min(1).max(120) });
const tags = ["payments"];

/** Where an owner's money goes (issue 18): the instance's Stripe account or their own connected one. */
export const payoutRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/communities/:communityId/payouts",
    {
      schema: {
        tags,
        summary: "Payouts (owner): where payments go and, with Stripe Connect, the connected account's status",
        params,
        response: { 200: payoutsDto, ...errorResponses },
      },
    },
    async (request) => getPayouts(ctx, await ctx.requireViewer(request), request.params.communityId),
  );

  app.post(
    "/api/communities/:communityId/payouts/connect",
    {
      schema: {
        tags,
        summary:
          "Connect Stripe (owner, Connect mode only): the community's Stripe account, made once, and a link to its onboarding",
        params,
        response: { 200: z.object({ url: z.string() }), ...errorResponses },
      },
    },
    async (request) => connectPayouts(ctx, await ctx.requireViewer(request), request.params.communityId),
  );

  app.post(
    "/api/communities/:communityId/payouts/refresh",
    {
      schema: {
        tags,
        summary: "Refresh the connected account's status from Stripe (owner)",
        params,
        response: { 200: payoutsDto, ...errorResponses },
      },
    },
    async (request) => refreshPayouts(ctx, await ctx.requireViewer(request), request.params.communityId),
  );
};
