import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { calendarMonthDto, calendarMonthQuery } from "#shared/calendar.schemas";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import { calendarMonth } from "./calendar-month";
import { sendJsonText } from "#server/lib/json-reply";

export const calendarMonthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/communities/:communityId/calendar",
    {
      schema: {
        tags: ["events"],
        summary: "The month grid: occurrences overlapping a range of at most 45 days (members only)",
        params: z.object({ communityId: z.string().min(1).max(120) }),
        querystring: calendarMonthQuery,
        response: { 200: calendarMonthDto, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = await calendarMonth(ctx, await ctx.viewer(request), request.params.communityId, request.query);
      // Sent as built by PostgreSQL and kept per community (calendar-month.ts).
      return sendJsonText(reply, body);
    },
  );
};
