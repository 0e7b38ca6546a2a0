import { Readable } from "node:stream";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import { getRevenue, paymentsCsv } from "./revenue.service";

const count = z.number().int();
const minor = z.number().int().describe("minor units of `currency`");
const revenueDto = z.object({
  currency: z.string(),
  mrr: minor.describe(
    "monthly recurring revenue: open paid subscriptions (not trialing), the annual ones over 12; minor units",
  ),
  active: count,
  trialing: count,
  past_due: count.describe("a failed renewal, still within its grace period"),
  canceled: count.describe("cancelled, open until the paid period ends"),
  ended: count.describe("ended in the last 30 days"),
  trial_conversion: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe("of the trials that ended, the share that went on to pay; null when none ended"),
  refunds: z.object({ count, amount: minor }).describe("the last 30 days"),
  by_tier: z.array(
    z.object({ tier_id: z.string(), name: z.string(), active: count, trialing: count, past_due: count, mrr: minor }),
  ),
  by_month: z
    .array(
      z.object({
        month: z.string().describe("YYYY-MM (UTC)"),
        gross: minor.describe("succeeded charges"),
        refunds: minor,
        net: minor.describe("gross less refunds"),
        new_subscribers: count,
        cancellations: count.describe("subscriptions that ended in the month"),
      }),
    )
    .describe("the last 12 months, oldest first"),
  note: z.string().nullable().describe("set when rows in other currencies were left out"),
});
const params = z.object({ communityId: z.string().min(1).max(120) });
const tags = ["payments"];

/** What an owner earns (issue 18): revenue figures and the payments export. Owner only. */
export const revenueRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/communities/:communityId/revenue",
    {
      schema: {
        tags,
        summary:
          "Revenue (owner): MRR, subscribers by status, trial conversion, refunds, by tier and by month, from Hearth's own records",
        params,
        response: { 200: revenueDto, ...errorResponses },
      },
    },
    async (request) => getRevenue(ctx, await ctx.requireViewer(request), request.params.communityId),
  );

  app.get(
    "/api/communities/:communityId/payments.csv",
    {
      schema: {
        tags,
        summary:
          "Every payment of the community as CSV (owner): date, type, status, amount, currency, fee, description, member (username), tier, reference",
        params,
        produces: ["text/csv"],
        response: { 200: z.string().describe("text/csv"), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { filename, lines } = await paymentsCsv(ctx, await ctx.requireViewer(request), request.params.communityId);
      return (
        reply
          .type("text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="${filename}"`)
          .header("cache-control", "no-store")
          // Streamed a page at a time; the schema documents the body as the text it is.
          .send(Readable.from(lines) as unknown as string)
      );
    },
  );
};
