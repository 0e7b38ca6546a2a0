import type { FastifyInstance } from "fastify";
import type { AppContext } from "#server/context";
import { sweepMedia } from "#server/lib/uploads";

/**
 * The process's background work: the job worker, and media housekeeping (lib/uploads sweepMedia),
 * hourly where jobs run, first a minute after start, and the session cache's expired entries,
 * dropped every CACHE_SWEEP_MS so that memory returns after a crowd has gone (issue 23). All stop
 * when the app closes, as does the LISTEN connection, after the announcements waiting are sent.
 */
const CACHE_SWEEP_MS = 30_000;

export function startBackgroundWork(app: FastifyInstance, ctx: AppContext, opts: { startWorker: boolean }): void {
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () => {
    sweepMedia(ctx, { dataDir: ctx.config.dataDir }).catch((err) => app.log.error({ err }, "media sweep failed"));
    sweeper = setTimeout(sweep, 3_600_000).unref();
  };
  if (opts.startWorker) sweeper = setTimeout(sweep, 60_000).unref();
  const cacheSweeper = setInterval(() => ctx.viewer.sweep(), CACHE_SWEEP_MS).unref();
  app.addHook("onClose", async () => {
    if (sweeper) clearTimeout(sweeper);
    clearInterval(cacheSweeper);
    await ctx.worker.stop();
    await ctx.announcer.close();
    await ctx.listener.stop();
  });
  if (opts.startWorker) ctx.worker.start();
}
