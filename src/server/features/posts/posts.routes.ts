import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MSG } from "../../../shared/messages";
import type { AppContext } from "../../context";
import { errorResponses } from "../../lib/schemas";
import { createPost, findFeed } from "./posts.service";

const params = z.object({ communityId: z.string().min(1).max(120) });
const visibility = z.enum(["public", "members", "admins"]);

const feedPost = z.object({
  id: z.string(),
  content: z.string(),
  type: z.string(),
  visibility,
  is_pinned: z.boolean(),
  is_edited: z.boolean(),
  likes_count: z.number(),
  comments_count: z.number(),
  share_count: z.number(),
  category_id: z.string().nullable(),
  created_at: z.string(),
  author: z
    .object({ user_id: z.string(), username: z.string(), full_name: z.string(), avatar_url: z.string().nullable() })
    .nullable(),
});

export const postRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/communities/:communityId/posts",
    {
      schema: {
        tags: ["posts"],
        summary: "The feed: pinned first, then newest, 50 a page (visibility per the viewer's role)",
        params,
        querystring: z.object({ category: z.uuid().optional(), cursor: z.string().max(300).optional() }),
        response: {
          200: z.object({ items: z.array(feedPost), next_cursor: z.string().nullable() }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      findFeed({
        ctx,
        viewer: await ctx.viewer(request),
        idOrSlug: request.params.communityId,
        categoryId: request.query.category,
        cursor: request.query.cursor,
      }),
  );

  app.post(
    "/api/communities/:communityId/posts",
    {
      schema: {
        tags: ["posts"],
        summary: "Write a text post",
        params,
        body: z
          .object({
            content: z.string(MSG.enterContent).max(10_000, "Posts can be at most 10,000 characters"),
            category_id: z.uuid().nullable().optional(),
            visibility: visibility.optional(),
          })
          .strict(),
        response: {
          201: z.object({ id: z.string(), is_approved: z.boolean(), created_at: z.string() }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const created = await createPost({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.communityId,
        input: request.body,
      });
      return reply.status(201).send(created);
    },
  );
};
