import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context";

export const healthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/health",
    {
      schema: {
        tags: ["health"],
        summary: "Liveness and database check",
        response: {
          200: z.object({ status: z.literal("ok"), database: z.literal("ok") }),
          503: z.object({ status: z.literal("degraded"), database: z.literal("unreachable") }),
        },
      },
    },
    async (_req, reply) => {
      try {
        await ctx.db.execute(sql`SELECT 1`);
        return { status: "ok" as const, database: "ok" as const };
      } catch {
        return reply.status(503).send({ status: "degraded" as const, database: "unreachable" as const });
      }
    },
  );
};
