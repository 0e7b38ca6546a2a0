import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  cancelEventSchema,
  createEventSchema,
  eventListQuery,
  occurrenceDto,
  occurrencePage,
  updateEventSchema,
} from "#shared/calendar.schemas";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import { getOccurrence, listOccurrences } from "./events.read";
import { cancelEvent, createEvent, updateEvent } from "./events.service";
import { sendJsonText } from "#server/lib/json-reply";

const communityParams = z.object({ communityId: z.string().min(1).max(120) });
const occurrenceParams = z.object({ occurrenceId: z.string().max(60) });
const tags = ["events"];

/** Issue 19: the community calendar: creating, editing and cancelling events, the month view, the lists, one event. */
export const eventRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/communities/:communityId/events",
    {
      schema: {
        tags,
        summary:
          "The calendar (members): `from`+`to` for a range of at most 45 days (the month view, cancelled ones included), or `when=upcoming|past` pages with a cursor (cancelled left out). A visitor or non-member of a public community gets an empty list",
        params: communityParams,
        querystring: eventListQuery,
        response: { 200: occurrencePage, ...errorResponses },
      },
    },
    async (request, reply) => {
      const page = await listOccurrences(ctx, await ctx.viewer(request), request.params.communityId, request.query);
      // Sent as built (toDto builds every field): a month view holds thousands of occurrences, and
      // checking each against the schema cost more than the query.
      return sendJsonText(reply, JSON.stringify(page));
    },
  );

  app.post(
    "/api/communities/:communityId/events",
    {
      schema: {
        tags,
        summary: "Create an event, one-off or recurring (owner, admin); answers its first occurrence to come",
        params: communityParams,
        body: createEventSchema,
        response: { 201: occurrenceDto, ...errorResponses },
      },
    },
    async (request, reply) => {
      const viewer = await ctx.requireViewer(request);
      return reply.status(201).send(await createEvent(ctx, viewer, request.params.communityId, request.body));
    },
  );

  app.get(
    "/api/events/:occurrenceId",
    {
      schema: {
        tags,
        summary:
          "One occurrence, as the viewer may see it (the meeting link from 15 minutes before, to those who may attend)",
        params: occurrenceParams,
        response: { 200: occurrenceDto, ...errorResponses },
      },
    },
    async (request) => getOccurrence(ctx, await ctx.viewer(request), request.params.occurrenceId),
  );

  app.patch(
    "/api/events/:occurrenceId",
    {
      schema: {
        tags,
        summary:
          "Edit an occurrence (owner, admin): scope 'one' (this event), 'following' (splits the series here) or 'all'; answers the occurrence",
        params: occurrenceParams,
        body: updateEventSchema,
        response: { 200: occurrenceDto, ...errorResponses },
      },
    },
    async (request) => updateEvent(ctx, await ctx.requireViewer(request), request.params.occurrenceId, request.body),
  );

  app.post(
    "/api/events/:occurrenceId/cancel",
    {
      schema: {
        tags,
        summary: "Cancel an occurrence (owner, admin): this one, this and following, or all not yet ended",
        params: occurrenceParams,
        body: cancelEventSchema,
        response: { 200: occurrenceDto, ...errorResponses },
      },
    },
    async (request) =>
      cancelEvent(ctx, await ctx.requireViewer(request), request.params.occurrenceId, request.body.scope),
  );
};
