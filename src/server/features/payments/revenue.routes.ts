import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "#server/context";

/** What an owner earns (issue 18): revenue figures and the payments export. */
export const revenueRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (_app, { ctx: _ctx }) => {};
