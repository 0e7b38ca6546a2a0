import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { createReportSchema, decideReportSchema, reportCaseDto, reportSettingsSchema } from "#shared/reports.schemas";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import { decideReport } from "./reports.decide";
import { countOpenReports, findReportCases, findReportSettings, updateReportSettings } from "./reports.queue";
import { createReport } from "./reports.service";

const params = z.object({ idOrSlug: z.string().min(1).max(120) });
const caseParams = params.extend({ caseId: z.string().min(1).max(60) });
const message = z.object({ message: z.string() });
const settingsDto = z.object({ hide_threshold: z.number().int(), min_message_level: z.number().int() });

export const reportRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/api/reports",
    {
      schema: {
        tags: ["reports"],
        summary: "Report a post, comment, message or profile to a community's moderators",
        description:
          "Members report what they may read: a post or comment in its community, a message they received " +
          "or a profile in a community both people are in (community_id). Anything the reporter cannot read " +
          "answers 404 like something missing. A second report of the same item by the same person answers " +
          "200 and stores nothing. After the community's threshold of distinct reporters a post or comment " +
          "is hidden pending review.",
        body: createReportSchema,
        response: { 200: message, 201: message, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await createReport({ ctx, viewer: await ctx.requireViewer(request), input: request.body });
      return reply.code(result.status).send(result.body);
    },
  );

  app.get(
    "/api/communities/:idOrSlug/reports",
    {
      schema: {
        tags: ["reports"],
        summary: "The reports queue: open cases first, newest first (owner, admin, moderator)",
        params,
        querystring: z.object({ cursor: z.string().max(400).optional() }),
        response: {
          200: z.object({ items: z.array(reportCaseDto), next_cursor: z.string().nullable() }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      findReportCases({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.idOrSlug,
        cursor: request.query.cursor,
      }),
  );

  app.get(
    "/api/communities/:idOrSlug/reports/count",
    {
      schema: {
        tags: ["reports"],
        summary: "Open reports, for the Admin tab's badge (owner, admin, moderator)",
        params,
        response: { 200: z.object({ open: z.number().int() }), ...errorResponses },
      },
    },
    async (request) =>
      countOpenReports({ ctx, viewer: await ctx.requireViewer(request), idOrSlug: request.params.idOrSlug }),
  );

  app.post(
    "/api/communities/:idOrSlug/reports/:caseId/decide",
    {
      schema: {
        tags: ["reports"],
        summary: "Decide a report: dismiss, remove, warn (owner, admin, moderator) or ban (owner, admin)",
        description:
          "dismiss shows hidden content again; remove deletes the post, comment or message and tells its author " +
          "the reason; warn records a warning and tells the author; ban bans the author and removes the item. " +
          "Every reporter is told the outcome, never who acted. A decided case answers 409.",
        params: caseParams,
        body: decideReportSchema,
        response: { 200: reportCaseDto, ...errorResponses },
      },
    },
    async (request) =>
      decideReport({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.idOrSlug,
        caseId: request.params.caseId,
        input: request.body,
      }),
  );

  app.get(
    "/api/communities/:idOrSlug/reports/settings",
    {
      schema: {
        tags: ["reports"],
        summary: "The hide threshold and the minimum level to start a chat (owner, admin)",
        params,
        response: { 200: settingsDto, ...errorResponses },
      },
    },
    async (request) =>
      findReportSettings({ ctx, viewer: await ctx.requireViewer(request), idOrSlug: request.params.idOrSlug }),
  );

  app.put(
    "/api/communities/:idOrSlug/reports/settings",
    {
      schema: {
        tags: ["reports"],
        summary: "Change the hide threshold or the minimum level to start a chat (owner, admin)",
        params,
        body: reportSettingsSchema,
        response: { 200: settingsDto, ...errorResponses },
      },
    },
    async (request) =>
      updateReportSettings({
        ctx,
        viewer: await ctx.requireViewer(request),
        idOrSlug: request.params.idOrSlug,
        input: request.body,
      }),
  );
};
