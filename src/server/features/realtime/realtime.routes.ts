import { sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { mayViewPost } from "#shared/roles";
import type { AppContext } from "#server/context";
import { requireCommunity } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import {
  communityChannel,
  parseEventId,
  parsePostEvent,
  SseStream,
  type PostVisibility,
  userChannel,
  type RealtimeMessage,
  type SseFrame,
} from "#server/lib/realtime";
import { notificationVisible } from "#server/lib/notifications";
import { messageEventFrame } from "#server/features/messages/index";
import { errorResponses } from "#server/lib/schemas";
import { AccessCache, JoinBucket, type Access } from "./realtime.service";

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
  let lastPostFrame: { id: number; frame: SseFrame; visibility: PostVisibility } | null = null;
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
  const rechecks = new Set<() => void>();
  const recheckTimer = setInterval(() => {
    accessCache.sweep();
    for (const recheck of rechecks) recheck();
  }, settings.accessRecheckMs);
  recheckTimer.unref();
  app.addHook("onClose", async () => clearInterval(recheckTimer));

  /**
   * Opens one SSE stream on a realtime channel, after every check that may still answer with an
   * error. `allowed` is asked before each event and every accessRecheckMs (false ends the
   * stream); `frame` turns an event into what this viewer is sent, or null for nothing.
   */
  const openStream = (
    request: FastifyRequest,
    reply: FastifyReply,
    opts: {
      capKey: string;
      cap: number;
      channel: string;
      allowed: () => Promise<boolean>;
      /** The access check's answer when it is known without a read (cached), else undefined. */
      allowedNow?: () => boolean | undefined;
      frame: (event: { id: number; payload: Record<string, unknown> }) => Promise<SseFrame | null> | SseFrame | null;
      /** Called once the stream has ended. */
      onClose?: () => void;
    },
  ) => {
    const open = openStreams.get(opts.capKey) ?? 0;
    if (open >= opts.cap) {
      throw new AppError("RATE_LIMITED", "Too many live connections are open. Close some tabs and try again.", {
        retryAfter: 5,
      });
    }
    const lastEventId = parseEventId(
      request.headers["last-event-id"] ?? (request.query as QueryWithCursor).lastEventId,
    );

    openStreams.set(opts.capKey, open + 1);
    // The settings themselves (read at each frame; tests change them), not a copy per stream.
    const stream = new SseStream(reply, settings);
    streams.add(stream);

    let allowed = true;
    const check = async () => {
      if (!allowed) return;
      try {
        allowed = await opts.allowed();
      } catch (err) {
        // Without an answer nothing more is sent; the client reconnects and is checked afresh.
        request.log.warn({ err }, "realtime access check failed");
        allowed = false;
      }
      if (!allowed) stream.close();
    };

    // Messages are handled one after another, so a pending access check keeps their order.
    let chain: Promise<void> = Promise.resolve();
    let waiting = 0;
    const handle = async (message: RealtimeMessage) => {
      if (message.kind === "resync") return stream.resync(message.id);
      if (message.kind === "ready") return stream.send({ id: message.id, event: "ready", data: { type: "ready" } });
      await check();
      if (!allowed || stream.closed) return;
      const frame = await opts.frame(message);
      if (frame && !stream.closed) stream.send(frame);
    };
    const enqueue = (job: () => Promise<void> | void) => {
      if (++waiting > 1000) return stream.close();
      chain = chain
        .then(job)
        .catch((err) => request.log.error({ err }, "realtime delivery failed"))
        .finally(() => waiting--);
    };

    /**
     * An event while nothing waits and the access is known: handed over at once, without a promise
     * (issue 23: one event reaching 10,000 streams of a process). False when it must wait its turn.
     */
    const deliverNow = (message: RealtimeMessage): boolean => {
      if (waiting > 0 || message.kind !== "event" || !allowed || !opts.allowedNow) return false;
      const known = opts.allowedNow();
      if (known === undefined) return false;
      if (!known) {
        allowed = false;
        stream.close();
        return true;
      }
      const frame = opts.frame(message);
      if (frame instanceof Promise) {
        enqueue(async () => {
          const ready = await frame;
          if (ready && !stream.closed) stream.send(ready);
        });
      } else if (frame && !stream.closed) {
        stream.send(frame);
      }
      return true;
    };

    const subscription = ctx.realtime.subscribe(opts.channel, lastEventId, (message) => {
      if (!deliverNow(message)) enqueue(() => handle(message));
    });
    const recheck = () => enqueue(check);
    rechecks.add(recheck);

    stream.onClose(() => {
      opts.onClose?.();
      rechecks.delete(recheck);
      subscription.close();
      streams.delete(stream);
      const n = (openStreams.get(opts.capKey) ?? 1) - 1;
      if (n <= 0) openStreams.delete(opts.capKey);
      else openStreams.set(opts.capKey, n);
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
      const viewer = await ctx.viewer(request);
      if (!viewer) await ctx.rateLimiter.hit(`realtime-join:${request.ip}`, ANONYMOUS_JOIN_RULE);
      const { community, role } = await requireCommunity({
        db: ctx.db,
        idOrSlug: request.params.communityId,
        userId: viewer?.id,
      });
      let access: Access = { role };
      // The stream keeps the community's id, not its row (about 2 KB per stream).
      const communityId = community.id;
      const userId = viewer?.id ?? null;
      const sessionId = viewer?.sessionId ?? null;
      // What the opening just read answers the first events too.
      accessCache.remember(communityId, userId, sessionId, access);
      return openStream(request, reply, {
        capKey: viewer ? `u:${viewer.id}` : `ip:${request.ip}`,
        cap: viewer ? settings.maxStreamsPerUser : settings.maxStreamsPerAddress,
        channel: communityChannel(communityId),
        allowed: async () => {
          access = await accessCache.read(communityId, userId, sessionId);
          return access !== null;
        },
        allowedNow: () => {
          const known = accessCache.peek(communityId, userId, sessionId);
          if (known === undefined) return undefined;
          access = known;
          return known !== null;
        },
        frame: (message) => {
          const frame = postFrame(message);
          return frame && access && mayViewPost(access.role, frame.visibility) ? frame.frame : null;
        },
        // Its memory goes with it (issue 23); another stream of the same session reads it again.
        onClose: () => accessCache.forget(communityId, userId, sessionId),
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
          return rows.length > 0 ? { id, event: "notification", data: { type: "notification", id: payload.id } } : null;
        },
      });
    },
  );
};
