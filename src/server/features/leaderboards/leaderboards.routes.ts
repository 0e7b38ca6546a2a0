import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "#server/context";
import { levelLadderDto, memberLevelDto } from "#shared/levels.schemas";
import { errorResponses } from "#server/lib/schemas";
import { findLeaderboard, LEADERBOARD_PERIODS, type LeaderboardPeriod } from "./leaderboards.service";

const entry = z.object({
  user_id: z.string(),
  username: z.string(),
  full_name: z.string(),
  avatar_url: z.string().nullable(),
  points: z
    .number()
    .describe(
      "All time: the member's points (likes received, plus lessons and events when counted); 7d and 30d: likes received in the period",
    ),
  level: z.number().int().describe("The member's current level (1-9)"),
  rank: z.number(),
});

export const leaderboardRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/communities/:communityId/leaderboard",
    {
      schema: {
        tags: ["leaderboards"],
        summary:
          "Members ranked by points (all time) or likes received (7 or 30 days), with levels and the level ladder",
        params: z.object({ communityId: z.string().min(1).max(120) }),
        querystring: z.object({
          period: z
            .enum(Object.keys(LEADERBOARD_PERIODS) as [LeaderboardPeriod, ...LeaderboardPeriod[]])
            .default("30d"),
          limit: z.coerce.number().int().min(1).max(100).default(20),
        }),
        response: {
          200: z.object({
            period: z.string(),
            items: z.array(entry),
            viewer: entry.nullable(),
            ladder: levelLadderDto.describe("Current members at each level, level 1 first"),
            viewer_level: memberLevelDto
              .nullable()
              .describe("The viewer's points, level and progress (null: not a member)"),
          }),
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
