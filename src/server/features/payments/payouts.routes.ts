import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "#server/context";

/** Where an owner's money goes (issue 18): the instance's Stripe account or their own connected one. */
export const payoutRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (_app, { ctx: _ctx }) => {};
