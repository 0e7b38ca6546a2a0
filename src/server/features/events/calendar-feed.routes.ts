import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { CALENDAR_MESSAGES } from "#shared/calendar";
import { calendarFeedDto } from "#shared/calendar.schemas";
import type { AppContext } from "#server/context";
import { acceptedEncodings } from "#server/plugins/compression";
import { notFound } from "#server/lib/errors";
import { RATE_RULES } from "#server/lib/rate-limit";
import { errorResponses } from "#server/lib/schemas";
import { feedIcs, getFeed, occurrenceIcs, revokeFeed, rotateFeed } from "./calendar-feed";

const tags = ["events"];
const ICS_TYPE = "text/calendar; charset=utf-8";

/** "gzip" (or "*", or "x-gzip") with a quality above 0 in an Accept-Encoding header. */
const acceptsGzip = (header: string | undefined) => acceptedEncodings(header).gzip;

/** Issue 19: 'Add to calendar' files, and each person's private calendar feed (made and revoked in Edit Profile). */
export const calendarFeedRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const origin = new URL(ctx.config.publicUrl).origin;

  app.get(
    "/api/events/:occurrenceId/ics",
    {
      schema: {
        tags,
        summary: "One occurrence as an .ics file (whoever sees the event); the meeting link is never in it",
        params: z.object({ occurrenceId: z.string().max(60) }),
        produces: ["text/calendar"],
        response: { 200: z.string().describe("text/calendar"), ...errorResponses },
      },
    },
    async (request, reply) => {
      const viewer = await ctx.requireViewer(request);
      const { body, fileName } = await occurrenceIcs(ctx.db, viewer.id, request.params.occurrenceId, origin);
      return reply
        .type(ICS_TYPE)
        .header("content-disposition", `attachment; filename="${fileName}"`)
        .header("cache-control", "private, no-store")
        .send(body);
    },
  );

  app.get(
    "/api/me/calendar-feed",
    {
      schema: {
        tags,
        summary: "The signed-in person's private calendar feed URL (null when they have none)",
        response: { 200: calendarFeedDto, ...errorResponses },
      },
    },
    async (request) => getFeed(ctx.db, (await ctx.requireViewer(request)).id, origin),
  );

  app.post(
    "/api/me/calendar-feed",
    {
      schema: {
        tags,
        summary: "Create the private calendar feed, or give it a new URL (the old one stops working)",
        response: { 200: calendarFeedDto, ...errorResponses },
      },
    },
    async (request) => rotateFeed(ctx.db, (await ctx.requireViewer(request)).id, origin),
  );

  app.delete(
    "/api/me/calendar-feed",
    {
      schema: {
        tags,
        summary: "Turn the private calendar feed off (its URL answers 404 from now on)",
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await revokeFeed(ctx.db, (await ctx.requireViewer(request)).id);
      return reply.status(204).send(null);
    },
  );

  // The feed calendar apps subscribe to: outside /api (a subscription URL, not part of the API, and no
  // session: the secret token is the credential). Left out of the OpenAPI document.
  app.get(
    "/calendar/:file",
    { schema: { hide: true, params: z.object({ file: z.string().max(100) }) } },
    async (request, reply) => {
      const { file } = request.params;
      if (!file.endsWith(".ics")) throw notFound(CALENDAR_MESSAGES.feedNotFound);
      const token = file.slice(0, -".ics".length);
      // Per token, not per address: calendar services fetch many people's feeds from few addresses.
      await ctx.rateLimiter.hit(`calendar-feed:${token.slice(0, 64)}`, RATE_RULES.calendarFeedPerToken);
      const { body, gzip, etag } = await feedIcs(ctx, token, origin);
      reply
        .header("cache-control", "private, max-age=300")
        .header("etag", etag)
        .header("vary", "accept-encoding")
        .header("x-robots-tag", "noindex")
        .header("referrer-policy", "no-referrer");
      if (request.headers["if-none-match"] === etag) return reply.status(304).send();
      reply.type(ICS_TYPE);
      // The gzip made when the feed was built. A reply that already has a content-encoding is passed
      // through by the compression plugin untouched, so it is neither compressed again nor per fetch.
      if (acceptsGzip(request.headers["accept-encoding"])) return reply.header("content-encoding", "gzip").send(gzip);
      return reply.send(body);
    },
  );
};
