import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "#server/context";
import { readiness } from "./readiness";
import { sendJsonText } from "#server/lib/json-reply";

/** The healthy answer's bytes, made once (the 200 schema below describes it). */
const HEALTHY = JSON.stringify({ status: "ok", database: "ok" });

export const healthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  /**
   * One database check at a time (issue 23, per-request layers): the requests that arrive while one
   * is under way share its answer, so a burst of probes costs one round trip, not one each, and an
   * answer is never older than the check in progress when it was asked.
   */
  let check: Promise<boolean> | undefined;
  const databaseAnswers = () => {
    check ??= ctx.db
      .execute(sql`SELECT 1`)
      .then(
        () => true,
        () => false,
      )
      .finally(() => {
        check = undefined;
      });
    return check;
  };
  app.get(
    "/api/health",
    {
      schema: {
        tags: ["health"],
        summary: "Liveness and database check",
        description:
          "200 while the process runs and reaches PostgreSQL, 503 (degraded) when PostgreSQL does not answer. " +
          "For load balancers deciding where to send traffic use /api/ready.",
        response: {
          200: z.object({ status: z.literal("ok"), database: z.literal("ok") }),
          503: z.object({ status: z.literal("degraded"), database: z.literal("unreachable") }),
        },
      },
    },
    async (_req, reply) => {
      // The answer is a constant: sent as its JSON text, it skips the response check and serializer
      // that every probe would pay for the same 31 bytes (issue 23, per-request layers).
      if (await databaseAnswers()) return sendJsonText(reply, HEALTHY);
      return reply.status(503).send({ status: "degraded" as const, database: "unreachable" as const });
    },
  );
  const checks = z.object({
    database: z.enum(["ok", "unreachable", "timeout"]),
    migrations: z.enum(["ok", "pending", "unknown"]),
    storage: z.enum(["ok", "unavailable", "timeout"]),
    shutdown: z.enum(["ok", "draining"]),
  });
  app.get(
    "/api/ready",
    {
      schema: {
        tags: ["health"],
        summary: "Readiness: may this process take traffic?",
        description:
          "200 only when PostgreSQL answers within a second, every migration of this version is applied, " +
          "media storage is reachable and the process is not shutting down (after SIGTERM it answers 503 " +
          "while it finishes what it has). 503 names the check that failed.",
        response: {
          200: z.object({ status: z.literal("ready"), checks }),
          503: z.object({ status: z.literal("not_ready"), checks }),
        },
      },
    },
    async (_req, reply) => {
      const result = await readiness(ctx);
      reply.header("cache-control", "no-store");
      if (result.ready) return { status: "ready" as const, checks: result.checks };
      return reply.status(503).send({ status: "not_ready" as const, checks: result.checks });
    },
  );
};
