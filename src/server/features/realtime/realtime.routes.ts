import { sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "#server/context";
import { requireCommunity } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { communityChannel, parseEventId, parsePostEvent, SseStream, userChannel } from "#server/lib/realtime";
import { notificationVisible } from "#server/lib/notifications";
import { messageEventFrame } from "#server/features/messages/index";
import { errorResponses } from "#server/lib/schemas";
import { CommunityStreamRules, LiveStream, type PostFrame, type StreamRules } from "./live-stream";
import { AccessCache, JoinBucket } from "./realtime.service";

/** Anonymous viewers open streams from one address at most this often (all processes). */
const ANONYMOUS_JOIN_RULE = { limit: 120, windowSeconds: 60 };

type QueryWithCursor = { lastEventId?: string };

export const realtimeRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const settings = ctx.realtime.settings;
  const openStreams = new Map<string, number>();
  const streams = new Set<SseStream>();
  // A stream never ends by itself: close them all before the server waits for open requests.
  app.addHook("preClose", async () => {
    for (const stream of [...streams]) stream.close();
  });

  /**
   * A post event as a frame, made once for all the streams it reaches (the last one is kept), with
   * the visibility that decides who gets it.
   */
  let lastPostFrame: PostFrame | null = null;
  const postFrame = ({ id, payload }: { id: number; payload: Record<string, unknown> }) => {
    if (lastPostFrame?.id === id) return lastPostFrame;
    const event = parsePostEvent(payload);
    if (!event) return null;
    lastPostFrame = {
      id,
      visibility: event.visibility,
      frame: { id, event: event.type, data: { type: event.type, post_id: event.post_id } },
    };
    return lastPostFrame;
  };

  const joins = new JoinBucket(settings);
  const accessCache = new AccessCache(ctx.pool, settings, ctx.listener);

  // Idle streams re-check their access together, so the checks of one community batch into one query.
  const rechecks = new Set<LiveStream>();
  const recheckTimer = setInterval(() => {
    accessCache.sweep();
    for (const live of rechecks) live.recheck();
  }, settings.accessRecheckMs);
  recheckTimer.unref();
  app.addHook("onClose", async () => clearInterval(recheckTimer));

  /**
   * Opens one SSE stream on a realtime channel, after every check that may still answer with an
   * error; `rules` decide, before each event and every accessRecheckMs, whether the viewer may
   * still watch (no ends the stream), and what they are sent.
   */
  const openStream = (
    request: FastifyRequest,
    reply: FastifyReply,
    opts: { capKey: string; cap: number; channel: string; rules: StreamRules },
  ) => {
    const { capKey, rules } = opts;
    const open = openStreams.get(capKey) ?? 0;
    if (open >= opts.cap) {
      throw new AppError("RATE_LIMITED", "Too many live connections are open. Close some tabs and try again.", {
        retryAfter: 5,
      });
    }
    const lastEventId = parseEventId(
      request.headers["last-event-id"] ?? (request.query as QueryWithCursor).lastEventId,
    );

    openStreams.set(capKey, open + 1);
    // The settings themselves (read at each frame; tests change them), not a copy per stream.
    const stream = new SseStream(reply, settings);
    streams.add(stream);
    const live = new LiveStream(stream, rules, request.log);
    const subscription = ctx.realtime.subscribe(opts.channel, lastEventId, (message) => live.receive(message));
    rechecks.add(live);

    stream.onClose(() => {
      rules.closed?.();
      rechecks.delete(live);
      subscription.close();
      streams.delete(stream);
      const n = (openStreams.get(capKey) ?? 1) - 1;
      if (n <= 0) openStreams.delete(capKey);
      else openStreams.set(capKey, n);
    });
    return reply;
  };

  const refuseBurst = () => {
    if (!joins.take()) {
      throw new AppError("RATE_LIMITED", "Too many live connections are opening. Please try again shortly.", {
        retryAfter: 1 + Math.floor(Math.random() * 5),
      });
    }
  };

  app.get(
    "/api/realtime/communities/:communityId",
    {
      schema: {
        tags: ["realtime"],
        summary:
          "Live changes to the community's posts (Server-Sent Events: ready, post_created, post_updated, post_deleted, resync; data is { type, post_id })",
        description:
          "A text/event-stream. Only posts the viewer may see are announced; refetch them through the API. " +
          "Resume with the Last-Event-ID header (or ?lastEventId=). On `resync`, refetch the feed.",
        params: z.object({ communityId: z.string().min(1).max(120) }),
        querystring: z.object({ lastEventId: z.string().max(20).optional() }),
        response: { ...errorResponses },
      },
    },
    async (request, reply) => {
      refuseBurst();
      // Before the session and the role are read: a change announced meanwhile is not kept.
      const mark = accessCache.mark;
      const viewer = await ctx.viewer(request);
      if (!viewer) await ctx.rateLimiter.hit(`realtime-join:${request.ip}`, ANONYMOUS_JOIN_RULE);
      const { community, role } = await requireCommunity({
        db: ctx.db,
        idOrSlug: request.params.communityId,
        userId: viewer?.id,
      });
      // The stream keeps the community's id, not its row (about 2 KB per stream).
      return openStream(request, reply, {
        capKey: viewer ? `u:${viewer.id}` : `ip:${request.ip}`,
        cap: viewer ? settings.maxStreamsPerUser : settings.maxStreamsPerAddress,
        channel: communityChannel(community.id),
        rules: new CommunityStreamRules(
          accessCache,
          settings,
          postFrame,
          community.id,
          viewer?.id ?? null,
          viewer?.sessionId ?? null,
          { role },
          mark,
        ),
      });
    },
  );

  app.get(
    "/api/realtime/notifications",
    {
      schema: {
        tags: ["realtime"],
        summary:
          "The viewer's notifications, live (Server-Sent Events: ready, notification { type, id }, read when some were marked read, memberships when their communities changed, resync)",
        description:
          "A text/event-stream for the signed-in viewer. Refetch the list and unread count through the API on each " +
          "`notification`. Resume with the Last-Event-ID header (or ?lastEventId=); on `resync`, refetch.",
        querystring: z.object({ lastEventId: z.string().max(20).optional() }),
        response: { ...errorResponses },
      },
    },
    async (request, reply) => {
      refuseBurst();
      const viewer = await ctx.requireViewer(request);
      return openStream(request, reply, {
        capKey: `u:${viewer.id}`,
        cap: settings.maxStreamsPerUser,
        channel: userChannel(viewer.id),
        rules: {
          allowed: () => ctx.viewer.sessionAlive(viewer.sessionId),
          frame: async ({ id, payload }) => {
            // Read in another tab: every tab refreshes its badge.
            if (payload.type === "read") return { id, event: "read", data: { type: "read" } };
            // Joined, left, removed, a role changed or a community deleted: refetch /api/me/communities.
            if (payload.type === "memberships") return { id, event: "memberships", data: { type: "memberships" } };
            // A conversation of theirs changed (message_new, message_updated, message_read): refetch it.
            const message = messageEventFrame(id, payload);
            if (message) return message;
            if (payload.type !== "notification" || typeof payload.id !== "string") return null;
            // Sent only while the viewer may still see it (they may have left the community since).
            const { rows } = await ctx.db.execute(sql`
            SELECT 1 FROM notifications n
             WHERE n.id = ${payload.id}::uuid AND n.user_id = ${viewer.id} AND n.in_app AND ${notificationVisible}`);
            return rows.length > 0
              ? { id, event: "notification", data: { type: "notification", id: payload.id } }
              : null;
          },
        },
      });
    },
  );
};
