import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_LEVEL, MIN_LEVEL } from "#shared/levels";
import { COMMUNITY_ROLES } from "#shared/roles";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import {
  changeRole,
  findBans,
  findMembers,
  findMyCommunities,
  joinCommunity,
  leaveCommunity,
  liftBan,
  removeMember,
} from "./members.service";

const roleEnum = z.enum(COMMUNITY_ROLES);
const params = z.object({ communityId: z.string().min(1).max(120) });
const memberParams = params.extend({ userId: z.string().min(1).max(100) });

/** The options of a route that acts on one person in the community and answers 204. */
const memberAction = (summary: string) => ({
  schema: { tags: ["members"], summary, params: memberParams, response: { 204: z.null(), ...errorResponses } },
});

const memberDto = z.object({
  user_id: z.string(),
  username: z.string(),
  full_name: z.string(),
  avatar_url: z.string().nullable(),
  headline: z.string(),
  role: roleEnum,
  joined_at: z.string(),
  last_active_at: z.string().nullable(),
  level: z.number().int().min(MIN_LEVEL).max(MAX_LEVEL).describe("Their level (1..9) here; 1 without points"),
});

const myCommunityDto = z.object({
  id: z.string(),
  slug: z.string(),
  custom_slug: z.string().nullable(),
  name: z.string(),
  icon_url: z.string().nullable(),
  visibility: z.enum(["public", "private"]),
  role: roleEnum.describe("The caller's role in it"),
  unread_count: z.number().describe("The caller's unread notifications about this community"),
});

export const memberRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/me/communities",
    {
      schema: {
        tags: ["members"],
        summary: "The communities the caller belongs to (private ones included), managed ones first, then by name",
        description:
          "Only the caller's own memberships: left, removed and banned ones are not listed. Changes are announced " +
          "on the caller's notification stream as a `memberships` event. At most 200.",
        response: { 200: z.object({ items: z.array(myCommunityDto) }), ...errorResponses },
      },
    },
    async (request) => findMyCommunities({ ctx, viewer: await ctx.requireViewer(request) }),
  );

  app.post(
    "/api/communities/:communityId/join",
    {
      schema: {
        tags: ["members"],
        summary: "Join a public community (private: only through an invite)",
        params,
        response: {
          200: z.object({
            role: roleEnum,
            joined: z.boolean().describe("false when already a member"),
            slug: z.string(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      joinCommunity({ ctx, viewer: await ctx.requireViewer(request), idOrSlug: request.params.communityId }),
  );

  app.post(
    "/api/communities/:communityId/leave",
    {
      schema: {
        tags: ["members"],
        summary: "Leave a community (the only owner cannot)",
        params,
        response: { 200: z.object({ role: z.null() }), ...errorResponses },
      },
    },
    async (request) =>
      leaveCommunity({ ctx, viewer: await ctx.requireViewer(request), idOrSlug: request.params.communityId }),
  );

  app.get(
    "/api/communities/:communityId/members",
    {
      schema: {
        tags: ["members"],
        summary: "Members, oldest first (members only)",
        params,
        querystring: z.object({
          q: z.string().max(100).optional(),
          role: roleEnum.optional(),
          cursor: z.string().max(300).optional(),
          limit: z.coerce.number().int().min(1).max(100).optional(),
        }),
        response: {
          200: z.object({ items: z.array(memberDto), next_cursor: z.string().nullable(), viewer_role: roleEnum }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      findMembers({
        ctx,
        viewer: await ctx.viewer(request),
        idOrSlug: request.params.communityId,
        q: request.query.q,
        role: request.query.role,
        cursor: request.query.cursor,
        limit: request.query.limit ?? 50,
      }),
  );

  app.patch(
    "/api/communities/:communityId/members/:userId",
    {
      schema: {
        tags: ["members"],
        summary: "Change a member's role (SPEC §6 rules)",
        params: memberParams,
        body: z.object({ role: roleEnum }).strict(),
        response: { 200: z.object({ user_id: z.string(), role: roleEnum }), ...errorResponses },
      },
    },
    async (request) =>
      changeRole({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        userId: request.params.userId,
        role: request.body.role,
      }),
  );

  app.delete(
    "/api/communities/:communityId/members/:userId",
    memberAction("Remove a member ranked below you (owner, admin)"),
    async (request, reply) => {
      await removeMember({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        userId: request.params.userId,
        ban: false,
      });
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/api/communities/:communityId/bans",
    {
      schema: {
        tags: ["members"],
        summary: "Banned users (owner, admin)",
        params,
        response: {
          200: z.array(
            z.object({
              user_id: z.string(),
              username: z.string(),
              full_name: z.string(),
              avatar_url: z.string().nullable(),
              reason: z.string(),
              created_at: z.string(),
            }),
          ),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      findBans({ ctx, viewer: await ctx.requireViewer(request), idOrSlug: request.params.communityId }),
  );

  app.post(
    "/api/communities/:communityId/bans",
    {
      schema: {
        tags: ["members"],
        summary: "Remove a member ranked below you and keep them out (owner, admin)",
        params,
        body: z.object({ user_id: z.string().min(1).max(100), reason: z.string().max(300).optional() }).strict(),
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeMember({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        userId: request.body.user_id,
        ban: true,
        reason: request.body.reason,
      });
      return reply.status(204).send(null);
    },
  );

  app.delete(
    "/api/communities/:communityId/bans/:userId",
    memberAction("Lift a ban (owner, admin)"),
    async (request, reply) => {
      await liftBan({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        userId: request.params.userId,
      });
      return reply.status(204).send(null);
    },
  );
};
