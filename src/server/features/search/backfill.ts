import type { FastifyInstance } from "fastify";
import { SEARCH_KINDS } from "#shared/search";
import type { AppContext } from "#server/context";

/** Rows indexed per transaction by the start-up backfill. */
export const BACKFILL_BATCH = 2000;

/**
 * Indexes, after start-up, rows of a large database that migration 0025 left (it indexes a small
 * one itself): hearth_search_backfill in batches, each its own short transaction, so writers never
 * wait on it; new and edited rows are indexed by the triggers meanwhile. Several processes may run it
 * at once (a batch locks its kind's progress row with SKIP LOCKED). Stops when done or when the app closes.
 */
export function startSearchBackfill(app: FastifyInstance, ctx: AppContext): void {
  let stopped = false;
  app.addHook("onClose", async () => {
    stopped = true;
  });
  const run = async () => {
    const pending = await ctx.pool.query<{ kind: string }>("SELECT kind FROM search_backfill WHERE NOT done");
    for (const kind of SEARCH_KINDS) {
      if (!pending.rows.some((r) => r.kind === kind)) continue;
      let done = 0;
      for (;;) {
        if (stopped) return;
        const res = await ctx.pool.query<{ n: number }>("SELECT hearth_search_backfill($1, $2) AS n", [
          kind,
          BACKFILL_BATCH,
        ]);
        const n = res.rows[0]?.n ?? 0;
        done += n;
        if (n < BACKFILL_BATCH) break;
      }
      if (done > 0) app.log.info({ kind, rows: done }, "search backfill done");
    }
  };
  app.addHook("onReady", async () => {
    run().catch((err: unknown) => {
      if (!stopped) app.log.error({ err }, "search backfill failed");
    });
  });
}
