import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { LIMITS } from "#shared/limits";
import { POST_LIMITS } from "#shared/posts";
import { createPostSchema, updatePostSchema } from "#shared/posts.schemas";
import { COMMUNITY_ROLES } from "#shared/roles";
import type { AppContext } from "#server/context";

import { AppError } from "#server/lib/errors";
import { getLinkPreview } from "#server/lib/link-preview";
import { RATE_RULES } from "#server/lib/rate-limit";
import { errorResponses, uploadResult } from "#server/lib/schemas";
import { filePart } from "#server/lib/uploads";
import { FILE_KINDS, MB, UPLOAD_MESSAGES } from "#shared/uploads";
import { postDto, postPage } from "./post-dto";
import { findFeed, findPostForViewer, findPublicPost } from "./posts.feed";
import { findPending, pinPost, reviewPost, warnAuthor } from "./posts.moderation";
import { findSaved } from "./posts.queries";
import {
  createPost,
  deletePost,
  sharePost,
  toggleLike,
  toggleSave,
  updatePost,
  uploadPostImage,
  votePoll,
} from "./posts.service";
import { sendJsonText } from "#server/lib/json-reply";

const communityParams = z.object({ communityId: z.string().min(1).max(120) });
const postParams = z.object({ postId: z.string().min(1).max(60) });

export const postRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/communities/:communityId/posts",
    {
      schema: {
        tags: ["posts"],
        summary: `The feed: pinned first, then newest, ${LIMITS.feedPageSize} a page (visibility per the viewer's role)`,
        params: communityParams,
        querystring: z.object({ category: z.uuid().optional(), cursor: z.string().max(300).optional() }),
        response: { 200: postPage, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = await findFeed({
        ctx,
        viewer: await ctx.viewer(request),
        idOrSlug: request.params.communityId,
        categoryId: request.query.category,
        cursor: request.query.cursor,
      });
      // Sent as built: validating 50 posts against the schema on every read cost more than building them.
      return sendJsonText(reply, body);
    },
  );

  app.post(
    "/api/communities/:communityId/posts",
    {
      schema: {
        tags: ["posts"],
        summary: "Write a post: text, image, video, poll or link",
        params: communityParams,
        body: createPostSchema,
        response: { 201: postDto, ...errorResponses },
      },
    },
    async (request, reply) => {
      const viewer = await ctx.requireViewer(request);
      await ctx.rateLimiter.hit(`post-create:${viewer.id}`, RATE_RULES.postCreatePerUser);
      const created = await createPost({
        ctx,
        viewer,
        idOrSlug: request.params.communityId,
        input: request.body,
        linkPreview: async (url) => {
          // Previews make the server fetch what a user names: a few a minute each, never a proxy.
          try {
            await ctx.rateLimiter.hit(`link-preview:${viewer.id}`, RATE_RULES.linkPreviewPerUser);
          } catch (err) {
            if (err instanceof AppError && err.code === "RATE_LIMITED") return null;
            throw err;
          }
          return getLinkPreview({ db: ctx.db, url, options: { logger: request.log } });
        },
      });
      return reply.status(201).send(created);
    },
  );

  app.get(
    "/api/communities/:communityId/posts/pending",
    {
      schema: {
        tags: ["posts"],
        summary: "Posts waiting for approval, oldest first (owner, admin, moderator)",
        params: communityParams,
        response: { 200: z.array(postDto), ...errorResponses },
      },
    },
    async (request) =>
      findPending({ ctx, viewer: await ctx.requireViewer(request), idOrSlug: request.params.communityId }),
  );

  app.post(
    "/api/communities/:communityId/media",
    {
      schema: {
        tags: ["posts"],
        summary: "Upload an image for a post (multipart field `file`: JPEG, PNG, WebP or GIF, max 10 MB)",
        consumes: ["multipart/form-data"],
        params: communityParams,
        response: { 200: uploadResult, ...errorResponses },
      },
    },
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      const part = await filePart(request, FILE_KINDS.image.maxMb * MB, { missing: UPLOAD_MESSAGES.notImage });
      return uploadPostImage({
        ctx,
        viewer,
        idOrSlug: request.params.communityId,
        file: part.file,
        name: part.filename,
      });
    },
  );

  app.get(
    "/api/posts/:postId",
    {
      schema: {
        tags: ["posts"],
        summary: "One post (the share link target)",
        params: postParams,
        response: {
          200: z.object({
            post: postDto,
            community: z.object({
              id: z.string(),
              slug: z.string(),
              name: z.string(),
              icon_url: z.string().nullable(),
            }),
            viewer_role: z.enum(COMMUNITY_ROLES).nullable(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const viewer = await ctx.viewer(request);
      // Anonymous visitors all get the same bytes, kept in the cache and sent as they are; a signed-in
      // viewer's answer is made from kept parts (decision 0025).
      const body = viewer
        ? await findPostForViewer({ ctx, viewer, postId: request.params.postId })
        : await findPublicPost({ ctx, postId: request.params.postId });
      return sendJsonText(reply, body);
    },
  );

  app.patch(
    "/api/posts/:postId",
    {
      schema: {
        tags: ["posts"],
        summary: "Edit your own post",
        params: postParams,
        body: updatePostSchema,
        response: { 200: postDto, ...errorResponses },
      },
    },
    async (request) =>
      updatePost({ ctx, viewer: await ctx.requireViewer(request), postId: request.params.postId, input: request.body }),
  );

  app.delete(
    "/api/posts/:postId",
    {
      schema: {
        tags: ["posts"],
        summary: "Delete a post (your own; any for owner, admin, moderator)",
        params: postParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deletePost({ ctx, viewer: await ctx.requireViewer(request), postId: request.params.postId });
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/api/posts/:postId/like",
    {
      schema: {
        tags: ["posts"],
        summary: "Like or unlike (toggle)",
        params: postParams,
        response: { 200: z.object({ liked: z.boolean(), likes_count: z.number() }), ...errorResponses },
      },
    },
    async (request) => toggleLike({ ctx, viewer: await ctx.requireViewer(request), postId: request.params.postId }),
  );

  app.post(
    "/api/posts/:postId/save",
    {
      schema: {
        tags: ["posts"],
        summary: "Save or unsave (toggle)",
        params: postParams,
        response: { 200: z.object({ saved: z.boolean() }), ...errorResponses },
      },
    },
    async (request) => toggleSave({ ctx, viewer: await ctx.requireViewer(request), postId: request.params.postId }),
  );

  app.post(
    "/api/posts/:postId/share",
    {
      schema: {
        tags: ["posts"],
        summary:
          "Count a share of the post's link: once per signed-in user, or once a day per visitor's address (visitors' calls are rate limited)",
        params: postParams,
        response: { 200: z.object({ share_count: z.number() }), ...errorResponses },
      },
    },
    async (request) => {
      const viewer = await ctx.viewer(request);
      if (!viewer) await ctx.rateLimiter.hit(`share:ip:${request.ip}`, RATE_RULES.shareAnonymousPerIp);
      return sharePost({ ctx, viewer, postId: request.params.postId, ip: request.ip });
    },
  );

  app.post(
    "/api/posts/:postId/vote",
    {
      schema: {
        tags: ["posts"],
        summary: "Vote in a poll (once)",
        params: postParams,
        body: z
          .object({
            option_index: z
              .number()
              .int()
              .min(0)
              .max(POST_LIMITS.pollOptionsMax - 1),
          })
          .strict(),
        response: { 200: postDto, ...errorResponses },
      },
    },
    async (request) =>
      votePoll({
        ctx,
        viewer: await ctx.requireViewer(request),
        postId: request.params.postId,
        optionIndex: request.body.option_index,
      }),
  );

  app.post(
    "/api/posts/:postId/pin",
    {
      schema: {
        tags: ["posts"],
        summary: "Pin or unpin (owner, admin, moderator)",
        params: postParams,
        body: z.object({ pinned: z.boolean() }).strict(),
        response: { 200: postDto, ...errorResponses },
      },
    },
    async (request) =>
      pinPost({
        ctx,
        viewer: await ctx.requireViewer(request),
        postId: request.params.postId,
        pinned: request.body.pinned,
      }),
  );

  app.post(
    "/api/posts/:postId/review",
    {
      schema: {
        tags: ["posts"],
        summary: "Approve or reject a pending post (owner, admin, moderator)",
        params: postParams,
        body: z.object({ approve: z.boolean() }).strict(),
        response: { 200: z.object({ id: z.string(), approved: z.boolean() }), ...errorResponses },
      },
    },
    async (request) =>
      reviewPost({
        ctx,
        viewer: await ctx.requireViewer(request),
        postId: request.params.postId,
        approve: request.body.approve,
      }),
  );

  app.post(
    "/api/posts/:postId/warn",
    {
      schema: {
        tags: ["posts"],
        summary: "Warn the post's author (owner, admin, moderator)",
        params: postParams,
        body: z
          .object({ reason: z.string().trim().min(1, "Please give a reason").max(POST_LIMITS.warningReasonMax) })
          .strict(),
        response: { 200: z.object({ warned: z.boolean() }), ...errorResponses },
      },
    },
    async (request) =>
      warnAuthor({
        ctx,
        viewer: await ctx.requireViewer(request),
        postId: request.params.postId,
        reason: request.body.reason,
      }),
  );

  app.get(
    "/api/me/saved",
    {
      schema: {
        tags: ["posts"],
        summary: "Your saved posts, newest saved first",
        querystring: z.object({ cursor: z.string().max(300).optional() }),
        response: {
          200: z.object({
            items: z.array(
              postDto.extend({ community: z.object({ id: z.string(), slug: z.string(), name: z.string() }) }),
            ),
            next_cursor: z.string().nullable(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => findSaved({ ctx, viewer: await ctx.requireViewer(request), cursor: request.query.cursor }),
  );
};
