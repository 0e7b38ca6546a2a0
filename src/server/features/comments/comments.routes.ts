import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { POST_LIMITS } from "#shared/posts";
import { commentSchema } from "#shared/posts.schemas";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import { memberCard } from "#server/features/posts/index";
import { createComment, deleteComment, findComments, toggleCommentLike, updateComment } from "./comments.service";

const postParams = z.object({ postId: z.string().min(1).max(60) });
const commentParams = z.object({ commentId: z.string().min(1).max(60) });

const commentDto = z.object({
  id: z.string(),
  post_id: z.string(),
  parent_id: z.string().nullable(),
  content: z.string(),
  likes_count: z.number(),
  is_edited: z.boolean(),
  deleted: z.boolean().describe("A deleted comment kept as a placeholder for its replies"),
  hidden: z
    .boolean()
    .describe("true: hidden pending review after members reported it (shown to its author only, flagged)"),
  created_at: z.string(),
  author: memberCard.nullable(),
  liked: z.boolean(),
});

export const commentRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/posts/:postId/comments",
    {
      schema: {
        tags: ["comments"],
        summary: "A post's comments and replies, oldest first",
        params: postParams,
        response: { 200: z.array(commentDto), ...errorResponses },
      },
    },
    async (request) => findComments({ ctx, viewer: await ctx.viewer(request), postId: request.params.postId }),
  );

  app.post(
    "/api/posts/:postId/comments",
    {
      schema: {
        tags: ["comments"],
        summary: "Comment on a post, or reply to a comment (one level)",
        params: postParams,
        body: commentSchema,
        response: { 201: commentDto, ...errorResponses },
      },
    },
    async (request, reply) => {
      const created = await createComment({
        ctx,
        viewer: await ctx.requireViewer(request),
        postId: request.params.postId,
        content: request.body.content,
        parentId: request.body.parent_id,
      });
      return reply.status(201).send(created);
    },
  );

  app.patch(
    "/api/comments/:commentId",
    {
      schema: {
        tags: ["comments"],
        summary: "Edit your own comment",
        params: commentParams,
        body: z.object({ content: commentSchema.shape.content }).strict(),
        response: {
          200: z.object({ id: z.string(), content: z.string().max(POST_LIMITS.commentMax), is_edited: z.boolean() }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      updateComment({
        ctx,
        viewer: await ctx.requireViewer(request),
        commentId: request.params.commentId,
        content: request.body.content,
      }),
  );

  app.delete(
    "/api/comments/:commentId",
    {
      schema: {
        tags: ["comments"],
        summary: "Delete a comment (your own; any for owner, admin, moderator)",
        params: commentParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteComment({ ctx, viewer: await ctx.requireViewer(request), commentId: request.params.commentId });
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/api/comments/:commentId/like",
    {
      schema: {
        tags: ["comments"],
        summary: "Like or unlike a comment (toggle)",
        params: commentParams,
        response: { 200: z.object({ liked: z.boolean(), likes_count: z.number() }), ...errorResponses },
      },
    },
    async (request) =>
      toggleCommentLike({ ctx, viewer: await ctx.requireViewer(request), commentId: request.params.commentId }),
  );
};
