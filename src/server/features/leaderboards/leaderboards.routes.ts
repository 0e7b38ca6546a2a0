import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import { findLeaderboard, LEADERBOARD_PERIODS, type LeaderboardPeriod } from "./leaderboards.service";

const entry = z.object({
  user_id: z.string(),
  username: z.string(),
  full_name: z.string(),
  avatar_url: z.string().nullable(),
  points: z.number().describe("Likes received on posts and comments in the period"),
  rank: z.number(),
});

export const leaderboardRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/communities/:communityId/leaderboard",
    {
      schema: {
        tags: ["leaderboards"],
        summary: "Members ranked by likes received on their posts and comments (7 days, 30 days, all time)",
        params: z.object({ communityId: z.string().min(1).max(120) }),
        querystring: z.object({
          period: z
            .enum(Object.keys(LEADERBOARD_PERIODS) as [LeaderboardPeriod, ...LeaderboardPeriod[]])
            .default("30d"),
          limit: z.coerce.number().int().min(1).max(100).default(20),
        }),
        response: {
          200: z.object({ period: z.string(), items: z.array(entry), viewer: entry.nullable() }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      findLeaderboard({
        ctx,
        viewer: await ctx.viewer(request),
        idOrSlug: request.params.communityId,
        period: request.query.period,
        limit: request.query.limit,
      }),
  );
};
