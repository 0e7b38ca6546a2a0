import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { levelSettingsDto, updateLevelSettingsSchema } from "#shared/levels.schemas";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import { findLevelSettings, updateLevelSettings } from "./levels.service";

const params = z.object({ communityId: z.string().min(1).max(120) });

export const levelRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/communities/:communityId/levels",
    {
      schema: {
        tags: ["levels"],
        summary: "The community's level names, thresholds, bonus points and minimum level to post (members)",
        params,
        response: { 200: levelSettingsDto, ...errorResponses },
      },
    },
    async (request) =>
      findLevelSettings({ ctx, viewer: await ctx.requireViewer(request), idOrSlug: request.params.communityId }),
  );

  app.put(
    "/api/communities/:communityId/levels",
    {
      schema: {
        tags: ["levels"],
        summary: "Change the level names, thresholds, bonus points or minimum level to post (owner, admin)",
        description:
          "Changing thresholds or bonus points recomputes every member's points and level at once; " +
          "levels reached that way are not announced.",
        params,
        body: updateLevelSettingsSchema,
        response: { 200: levelSettingsDto, ...errorResponses },
      },
    },
    async (request) =>
      updateLevelSettings({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        input: request.body,
      }),
  );
};
