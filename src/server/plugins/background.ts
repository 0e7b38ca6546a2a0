import type { FastifyInstance } from "fastify";
import type { AppContext } from "#server/context";
import { sweepMedia } from "#server/lib/uploads";

/**
 * The process's background work: the job worker, and media housekeeping (lib/uploads sweepMedia),
 * hourly where jobs run, first a minute after start. Both stop when the app closes, as does the
 * LISTEN connection.
 */
export function startBackgroundWork(app: FastifyInstance, ctx: AppContext, opts: { startWorker: boolean }): void {
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () => {
    sweepMedia(ctx, { dataDir: ctx.config.dataDir }).catch((err) => app.log.error({ err }, "media sweep failed"));
    sweeper = setTimeout(sweep, 3_600_000).unref();
  };
  if (opts.startWorker) sweeper = setTimeout(sweep, 60_000).unref();
  app.addHook("onClose", async () => {
    if (sweeper) clearTimeout(sweeper);
    await ctx.worker.stop();
    await ctx.listener.stop();
  });
  if (opts.startWorker) ctx.worker.start();
}
