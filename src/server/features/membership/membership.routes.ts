import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { JOIN_POLICIES } from "#shared/membership";
import {
  applySchema,
  decideJoinRequestsSchema,
  joinRequestDto,
  membershipSettingsDto,
  myJoinRequestDto,
  updateMembershipSchema,
} from "#shared/membership.schemas";
import { COMMUNITY_ROLES } from "#shared/roles";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import {
  applyToJoin,
  decideJoinRequests,
  findJoinRequests,
  findMembershipSettings,
  findMyRequest,
  updateMembershipSettings,
  withdrawRequest,
} from "./membership.service";

const params = z.object({ communityId: z.string().min(1).max(120) });

const requestForm = z.object({
  community: z.object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    icon_url: z.string().nullable(),
    visibility: z.enum(["public", "private"]),
    type: z.enum(["free", "paid"]),
  }),
  join_policy: z.enum(JOIN_POLICIES),
  questions: z.array(z.string()),
  ask_email: z.boolean(),
  viewer_role: z.enum(COMMUNITY_ROLES).nullable(),
  request: myJoinRequestDto.nullable().describe("The viewer's latest request (null when signed out or none)"),
});

export const membershipRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/communities/:communityId/membership",
    {
      schema: {
        tags: ["membership"],
        summary: "Who may join and how: the policy, questions, auto-approve, listing and cooldown (owner, admin)",
        params,
        response: { 200: membershipSettingsDto, ...errorResponses },
      },
    },
    async (request) =>
      findMembershipSettings({ ctx, viewer: await ctx.requireViewer(request), idOrSlug: request.params.communityId }),
  );

  app.patch(
    "/api/communities/:communityId/membership",
    {
      schema: {
        tags: ["membership"],
        summary: "Change who may join (owner, admin); a private community is never open",
        description: "Turning auto-approve on while requests are taken approves the pending requests.",
        params,
        body: updateMembershipSchema,
        response: { 200: membershipSettingsDto, ...errorResponses },
      },
    },
    async (request) =>
      updateMembershipSettings({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        input: request.body,
      }),
  );

  app.get(
    "/api/communities/:communityId/join-requests/mine",
    {
      schema: {
        tags: ["membership"],
        summary: "The request form: the community's questions and the viewer's latest request",
        description:
          "What a private community's gate shows when it takes requests. A private community that takes no " +
          "requests is answered as a missing one, except to its members and to people who asked before.",
        params,
        response: { 200: requestForm, ...errorResponses },
      },
    },
    async (request) => findMyRequest({ ctx, viewer: await ctx.viewer(request), idOrSlug: request.params.communityId }),
  );

  app.post(
    "/api/communities/:communityId/join-requests",
    {
      schema: {
        tags: ["membership"],
        summary: "Ask to join: one answer per question, in order, and the e-mail when asked (rate-limited)",
        description:
          "409 while a request is pending, within the cooldown after a decline, or for a member. With " +
          "auto-approve on the request is approved at once (joined true, or a paid community's checkout next).",
        params,
        body: applySchema,
        response: {
          201: z.object({ request: myJoinRequestDto, joined: z.boolean(), slug: z.string() }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const made = await applyToJoin({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        input: request.body,
      });
      return reply.status(201).send(made);
    },
  );

  app.delete(
    "/api/communities/:communityId/join-requests/mine",
    {
      schema: {
        tags: ["membership"],
        summary: "Withdraw the viewer's pending request",
        params,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await withdrawRequest({ ctx, viewer: await ctx.requireViewer(request), idOrSlug: request.params.communityId });
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/api/communities/:communityId/join-requests",
    {
      schema: {
        tags: ["membership"],
        summary: "Pending requests with their answers, oldest first, with the count (owner, admin)",
        params,
        querystring: z.object({ cursor: z.string().max(200).optional() }),
        response: {
          200: z.object({
            items: z.array(joinRequestDto),
            count: z.number().int().describe("Pending requests in all"),
            next_cursor: z.string().nullable(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      findJoinRequests({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        cursor: request.query.cursor,
      }),
  );

  app.post(
    "/api/communities/:communityId/join-requests/decide",
    {
      schema: {
        tags: ["membership"],
        summary: "Approve or decline requests, one or many, with an optional reason (owner, admin)",
        description: "Requests already answered, or not this community's, are skipped and reported, not refused.",
        params,
        body: decideJoinRequestsSchema,
        response: {
          200: z.object({
            results: z.array(
              z.object({
                id: z.string(),
                status: z.enum(["approved", "declined", "skipped"]),
                message: z.string().nullable(),
                joined: z.boolean(),
              }),
            ),
            approved: z.number().int(),
            declined: z.number().int(),
            skipped: z.number().int(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      decideJoinRequests({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        input: request.body,
      }),
  );
};
