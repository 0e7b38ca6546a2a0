import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { COMMUNITY_ROLES } from "#shared/roles";
import type { AppContext } from "#server/context";
import { RATE_RULES } from "#server/lib/rate-limit";
import { errorResponses } from "#server/lib/schemas";
import { acceptInvite, findInvite } from "./invites.service";

const params = z.object({ inviteCode: z.string().min(1).max(100) });

export const inviteRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/invites/:inviteCode",
    {
      schema: {
        tags: ["invites"],
        summary: "What an invite link leads to (rate-limited per address)",
        params,
        response: {
          200: z.object({
            community: z.object({
              id: z.string(),
              slug: z.string(),
              name: z.string(),
              description: z.string(),
              image_url: z.string().nullable(),
              icon_url: z.string().nullable(),
              cover_url: z.string().nullable(),
              member_count: z.number(),
              post_count: z.number(),
              type: z.enum(["free", "paid"]),
              price: z.number(),
              currency: z.string(),
              visibility: z.enum(["public", "private"]),
            }),
            viewer_role: z.enum(COMMUNITY_ROLES).nullable(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      await ctx.rateLimiter.hit(`invite:ip:${request.ip}`, RATE_RULES.inviteLookupPerIp);
      return findInvite({ ctx, viewer: await ctx.viewer(request), code: request.params.inviteCode });
    },
  );

  app.post(
    "/api/invites/:inviteCode/accept",
    {
      schema: {
        tags: ["invites"],
        summary: "Accept an invite: join as a member",
        params,
        response: {
          200: z.object({ success: z.boolean(), community: z.object({ id: z.string(), slug: z.string() }) }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      await ctx.rateLimiter.hit(`invite:ip:${request.ip}`, RATE_RULES.inviteLookupPerIp);
      await ctx.rateLimiter.hit(`invite-accept:${viewer.id}`, RATE_RULES.inviteAcceptPerUser);
      return acceptInvite({ ctx, viewer, code: request.params.inviteCode });
    },
  );
};
