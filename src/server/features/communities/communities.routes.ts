import { JOIN_POLICIES } from "#shared/membership";
import { myJoinRequestDto } from "#shared/membership.schemas";
import { memberLevelDto } from "#shared/levels.schemas";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import { CATEGORY_IDS, COMMUNITY_LIMITS } from "#shared/communities";
import {
  communitySwitches,
  createCommunitySchema,
  postCategoriesSchema,
  updateCommunitySchema,
} from "#shared/communities.schemas";
import { MSG } from "#shared/messages";
import { COMMUNITY_ROLES, PERMISSIONS, type Permission } from "#shared/roles";
import type { AppContext } from "#server/context";
import { AppError } from "#server/lib/errors";
import { RATE_RULES } from "#server/lib/rate-limit";
import { errorResponses, uploadResult } from "#server/lib/schemas";
import { filePart, readFilePart } from "#server/lib/uploads";
import { findPostCategories, replacePostCategories } from "./communities.categories";
import { findDirectory } from "./communities.directory";
import { replaceCover, replaceIcon } from "./communities.images";
import { createCommunity, deleteCommunity, regenerateInvite, updateCommunity } from "./communities.service";
import { findCommunityStats, findCommunityView } from "./communities.view";
import { sendJsonText } from "#server/lib/json-reply";

const roleEnum = z.enum(COMMUNITY_ROLES);
const permissionEnum = z.enum(Object.keys(PERMISSIONS) as [Permission, ...Permission[]]);

const directoryCard = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  short_description: z.string(),
  tagline: z.string(),
  category: z.string().nullable(),
  type: z.enum(["free", "paid"]),
  price: z.number().describe("the lowest monthly price of a paid tier, in currency units"),
  currency: z.string().describe("lower case, as Stripe writes it"),
  member_count: z.number(),
  icon_url: z.string().nullable(),
  cover_url: z.string().nullable(),
  is_featured: z.boolean(),
});

const directoryPage = z.object({ items: z.array(directoryCard), next_cursor: z.string().nullable() });

/**
 * Answers from the public cache, or computes, serializes and caches the answer. Only for answers
 * that are the same for every anonymous visitor; errors are thrown, never cached.
 */
async function sendCached(reply: FastifyReply, ctx: AppContext, key: string, compute: () => Promise<unknown>) {
  let body = ctx.publicCache.get(key);
  if (body === undefined) {
    body = JSON.stringify(await compute());
    ctx.publicCache.set(key, body);
  }
  return sendJsonText(reply, body);
}

const postCategoryDto = z.object({ id: z.string(), name: z.string(), emoji: z.string(), order_index: z.number() });

export const communityDto = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  custom_slug: z.string().nullable(),
  description: z.string(),
  short_description: z.string(),
  tagline: z.string(),
  category: z.string().nullable(),
  type: z.enum(["free", "paid"]),
  price: z.number().describe("the lowest monthly price of a paid tier, in currency units"),
  currency: z.string().describe("lower case, as Stripe writes it"),
  member_count: z.number(),
  post_count: z.number(),
  icon_url: z.string().nullable(),
  logo_url: z.string().nullable(),
  cover_url: z.string().nullable(),
  image_url: z.string().nullable(),
  brand_name: z.string().nullable(),
  is_featured: z.boolean(),
  creator_name: z.string().nullable(),
  creator_image: z.string().nullable(),
  website: z.string().nullable(),
  visibility: z.enum(["public", "private"]),
  created_by: z.string(),
  created_at: z.string(),
  ...communitySwitches,
  rules: z.array(z.string()),
  onboarding_completed: z.boolean(),
  onboarding_tasks_completed: z.array(z.string()),
  invite_enabled: z.boolean(),
  invite_code: z.string().nullable().describe("Only for those who may invite (owner, admin)"),
  join_policy: z.enum(JOIN_POLICIES),
  request_questions: z.array(z.string()).describe("Asked when someone requests to join (join_policy 'request')"),
  request_ask_email: z.boolean(),
  auto_approve: z.boolean(),
  listed: z.boolean().describe("A private community shown in the directory"),
  level_names: z.array(z.string()).describe("The 9 level names, level 1 first"),
  level_thresholds: z.array(z.number()).describe("Points needed for levels 1..9"),
  min_post_level: z.number().describe("The level a member needs to create a post (1: everyone)"),
  online_count: z.number().describe(`Members active in the last ${COMMUNITY_LIMITS.onlineWindowMinutes} minutes`),
  admin_count: z.number().describe("Owners and admins"),
  creator: z
    .object({ user_id: z.string(), username: z.string(), full_name: z.string(), avatar_url: z.string().nullable() })
    .nullable(),
  post_categories: z.array(postCategoryDto),
  viewer: z.object({
    role: roleEnum.nullable(),
    permissions: z.array(permissionEnum),
    signed_in: z.boolean(),
    may_leave: z
      .boolean()
      .describe("Whether Leave Community is offered: members, and an owner only while another owner remains"),
    level: memberLevelDto.nullable().describe("The viewer's points and level here (members)"),
    join_request: myJoinRequestDto.nullable().describe("The viewer's latest request to join, while it matters"),
  }),
});

const statsDto = z.object({
  total_members: z.number(),
  total_posts: z.number(),
  pending_posts: z.number(),
  active_today: z.number(),
  online_now: z.number(),
  new_members_7d: z.number(),
  new_members_30d: z.number(),
  joined_via_invite: z.number(),
  posts_7d: z.number(),
  roles: z.record(z.string(), z.number()),
  joins_by_day: z.array(z.object({ day: z.string(), count: z.number() })),
});

export const communityParams = z.object({ communityId: z.string().min(1).max(120) });

/** The options of a route that uploads one of the community's pictures (multipart field `file`). */
const imageUpload = (summary: string) => ({
  schema: {
    tags: ["communities"],
    summary,
    consumes: ["multipart/form-data"],
    params: communityParams,
    response: { 200: uploadResult, ...errorResponses },
  },
});

export const communityRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/communities",
    {
      schema: {
        tags: ["communities"],
        summary: "The directory: public communities by member count, with category, keyword and paging",
        querystring: z.object({
          category: z.enum(CATEGORY_IDS).optional(),
          q: z.string().max(COMMUNITY_LIMITS.searchMax).optional(),
          cursor: z.string().max(200).optional(),
          limit: z.coerce.number().int().min(1).max(COMMUNITY_LIMITS.directoryPageMax).optional(),
        }),
        response: { 200: directoryPage, ...errorResponses },
      },
    },
    async (request, reply) => {
      // The same for everyone: served from the public cache.
      const { category, q, cursor } = request.query;
      const limit = request.query.limit ?? COMMUNITY_LIMITS.directoryPageSize;
      const term = q?.trim() ?? "";
      return sendCached(reply, ctx, `directory:${category ?? ""}:${limit}:${cursor ?? ""}:${term}`, async () =>
        directoryPage.parse(await findDirectory({ ctx, category, q: term, cursor, limit })),
      );
    },
  );

  app.post(
    "/api/communities",
    {
      schema: {
        tags: ["communities"],
        summary: "Create a community; the creator becomes its owner",
        body: createCommunitySchema,
        response: { 201: z.object({ id: z.string(), slug: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const viewer = await ctx.viewer(request);
      if (!viewer) throw new AppError("UNAUTHORIZED", MSG.signInToCreate);
      await ctx.rateLimiter.hit(`community-create:${viewer.id}`, RATE_RULES.communityCreatePerUser);
      const created = await createCommunity({ ctx, viewer, name: request.body.name });
      return reply.status(201).send(created);
    },
  );

  app.get(
    "/api/communities/:communityId",
    {
      schema: {
        tags: ["communities"],
        summary: "A community by id or slug, with the viewer's role (private: 403 PRIVATE_COMMUNITY for non-members)",
        params: communityParams,
        response: { 200: communityDto, ...errorResponses },
      },
    },
    async (request, reply) => {
      const viewer = await ctx.viewer(request);
      const idOrSlug = request.params.communityId;
      if (viewer) return findCommunityView({ ctx, idOrSlug, viewer });
      // Anonymous visitors all see the same page: served from the public cache.
      return sendCached(reply, ctx, `community:${idOrSlug.toLowerCase()}`, async () =>
        communityDto.parse(await findCommunityView({ ctx, idOrSlug, viewer: null })),
      );
    },
  );

  app.patch(
    "/api/communities/:communityId",
    {
      schema: {
        tags: ["communities"],
        summary: "Update settings (owner, admin)",
        params: communityParams,
        body: updateCommunitySchema,
        response: { 200: communityDto, ...errorResponses },
      },
    },
    async (request) =>
      updateCommunity({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        input: request.body,
      }),
  );

  app.delete(
    "/api/communities/:communityId",
    {
      schema: {
        tags: ["communities"],
        summary: "Delete the community and everything in it (owner)",
        params: communityParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteCommunity({ ctx, viewer: await ctx.requireViewer(request), idOrSlug: request.params.communityId });
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/api/communities/:communityId/invite/regenerate",
    {
      schema: {
        tags: ["invites"],
        summary: "Replace the invite code (owner, admin); the old link stops working",
        params: communityParams,
        response: { 200: z.object({ invite_code: z.string(), invite_enabled: z.boolean() }), ...errorResponses },
      },
    },
    async (request) =>
      regenerateInvite({ ctx, viewer: await ctx.requireViewer(request), idOrSlug: request.params.communityId }),
  );

  app.get(
    "/api/communities/:communityId/categories",
    {
      schema: {
        tags: ["communities"],
        summary: "Post categories in order",
        params: communityParams,
        response: { 200: z.array(postCategoryDto), ...errorResponses },
      },
    },
    async (request) =>
      findPostCategories({ ctx, viewer: await ctx.viewer(request), idOrSlug: request.params.communityId }),
  );

  app.put(
    "/api/communities/:communityId/categories",
    {
      schema: {
        tags: ["communities"],
        summary: "Replace the post categories (owner, admin); list order is the display order",
        params: communityParams,
        body: postCategoriesSchema,
        response: { 200: z.array(postCategoryDto), ...errorResponses },
      },
    },
    async (request) =>
      replacePostCategories({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        categories: request.body.categories,
      }),
  );

  app.post(
    "/api/communities/:communityId/icon",
    imageUpload("Upload the icon (multipart field `file`: SVG, max 5 MB; owner, admin)"),
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      const file = await readFilePart(request, COMMUNITY_LIMITS.iconMaxBytes, {
        missing: MSG.iconMustBeSvg,
        tooLarge: MSG.fileTooLarge(5),
      });
      return replaceIcon({ ctx, viewer, idOrSlug: request.params.communityId, file });
    },
  );

  app.post(
    "/api/communities/:communityId/cover",
    imageUpload("Upload the cover (multipart field `file`: JPEG, PNG, WebP or GIF, max 10 MB; owner, admin)"),
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      const part = await filePart(request, COMMUNITY_LIMITS.coverMaxBytes, {
        missing: MSG.coverMustBeImage,
        tooLarge: MSG.fileTooLarge(10),
      });
      return replaceCover({ ctx, viewer, idOrSlug: request.params.communityId, file: part.file, name: part.filename });
    },
  );

  app.get(
    "/api/communities/:communityId/stats",
    {
      schema: {
        tags: ["communities"],
        summary: "Dashboard and metrics figures (owner, admin)",
        params: communityParams,
        response: { 200: statsDto, ...errorResponses },
      },
    },
    async (request) =>
      findCommunityStats({ ctx, viewer: await ctx.requireViewer(request), idOrSlug: request.params.communityId }),
  );
};
