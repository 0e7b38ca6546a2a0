import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { NOTIFICATION_LIMITS, NOTIFICATION_TYPES } from "#shared/notifications";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import { findNotifications, findUnreadCount, markAllRead, markRead, unsubscribe } from "./notifications.service";

const notificationDto = z.object({
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  body: z.string(),
  community_id: z.string().nullable(),
  community: z
    .object({ id: z.string(), slug: z.string(), name: z.string(), icon_url: z.string().nullable() })
    .nullable(),
  post_id: z.string().nullable(),
  actor: z
    .object({ user_id: z.string(), username: z.string(), full_name: z.string(), avatar_url: z.string().nullable() })
    .nullable(),
  is_read: z.boolean(),
  read_at: z.string().nullable(),
  created_at: z.string(),
  /** Where a click leads: /community/{id}#post-{postId} (SPEC §2). */
  href: z.string(),
});

const unreadDto = z.object({ unread_count: z.number().int() });

export const notificationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Mail clients' one-click unsubscribe (RFC 8058) posts a form body; the token in the URL is what counts.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 1024 },
    (_r, _b, done) => done(null, {}),
  );

  app.get(
    "/api/notifications",
    {
      schema: {
        tags: ["notifications"],
        summary: "The viewer's notifications, newest first, and the unread count",
        querystring: z.object({
          filter: z.enum(["all", "unread"]).default("all"),
          limit: z.coerce.number().int().min(1).max(NOTIFICATION_LIMITS.maxPage).default(NOTIFICATION_LIMITS.page),
          cursor: z.string().max(200).optional(),
        }),
        response: {
          200: z.object({
            items: z.array(notificationDto),
            next_cursor: z.string().nullable(),
            unread_count: z.number(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      return findNotifications({ ctx, viewer, ...request.query });
    },
  );

  app.get(
    "/api/notifications/unread-count",
    {
      schema: {
        tags: ["notifications"],
        summary: "How many of the viewer's notifications are unread",
        response: { 200: unreadDto, ...errorResponses },
      },
    },
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      return findUnreadCount({ ctx, viewer });
    },
  );

  app.post(
    "/api/notifications/read-all",
    {
      schema: {
        tags: ["notifications"],
        summary: "Mark all as read",
        response: { 200: unreadDto.extend({ updated: z.number().int() }), ...errorResponses },
      },
    },
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      return markAllRead({ ctx, viewer });
    },
  );

  app.post(
    "/api/notifications/:id/read",
    {
      schema: {
        tags: ["notifications"],
        summary: "Mark one notification read; answers the new unread count",
        params: z.object({ id: z.string().max(64) }),
        response: { 200: unreadDto, ...errorResponses },
      },
    },
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      return markRead({ ctx, viewer, id: request.params.id });
    },
  );

  app.post(
    "/api/notifications/unsubscribe",
    {
      config: { crossSite: true },
      schema: {
        tags: ["notifications"],
        summary: "Turn email notifications off with the token of a digest's unsubscribe link (no session needed)",
        querystring: z.object({ token: z.string().max(300).optional() }),
        body: z.object({ token: z.string().max(300).optional() }).optional(),
        response: { 200: z.object({ email_enabled: z.literal(false) }), ...errorResponses },
      },
    },
    async (request) => {
      const token = request.body?.token ?? request.query.token ?? "";
      return unsubscribe({ ctx, token });
    },
  );
};
