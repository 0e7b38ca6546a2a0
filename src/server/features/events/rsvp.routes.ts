import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { EVENT_LIMITS } from "#shared/calendar";
import { attendeesDto, rsvpResult, rsvpSchema } from "#shared/calendar.schemas";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import { listAttendees, setRsvp } from "./rsvp";

const occurrenceParams = z.object({ occurrenceId: z.string().max(60) });
const attendeesQuery = z.object({
  cursor: z.string().max(40).optional(),
  limit: z.coerce.number().int().min(1).max(EVENT_LIMITS.maxPage).default(EVENT_LIMITS.page),
});
const tags = ["events"];

/** Issue 19: going or not going to an occurrence (with a waitlist when it is full), and who is going. */
export const rsvpRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.put(
    "/api/events/:occurrenceId/rsvp",
    {
      schema: {
        tags,
        summary:
          "Going or not going (those who may attend): a seat while there is room, else the end of the waitlist; giving up a seat moves the first in line up",
        params: occurrenceParams,
        body: rsvpSchema,
        response: { 200: rsvpResult, ...errorResponses },
      },
    },
    async (request) =>
      setRsvp({
        ctx,
        viewer: await ctx.requireViewer(request),
        occurrenceId: request.params.occurrenceId,
        choice: request.body.status,
      }),
  );

  app.get(
    "/api/events/:occurrenceId/attendees",
    {
      schema: {
        tags,
        summary:
          "Who is going, in the order they said so, a page at a time, and how many wait (whoever sees the event)",
        params: occurrenceParams,
        querystring: attendeesQuery,
        response: { 200: attendeesDto, ...errorResponses },
      },
    },
    async (request) =>
      listAttendees({
        ctx,
        viewer: await ctx.requireViewer(request),
        occurrenceId: request.params.occurrenceId,
        cursor: request.query.cursor,
        limit: request.query.limit,
      }),
  );
};
