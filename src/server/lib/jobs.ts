import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { jobs } from "#server/db/schema/index";

export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;
type Log = { error: (obj: unknown, msg?: string) => void };

export async function enqueueJob(
  db: Pick<Db, "insert">,
  queue: string,
  payload: Record<string, unknown>,
  opts: { runAt?: Date; maxAttempts?: number } = {},
): Promise<void> {
  await db.insert(jobs).values({ queue, payload, runAt: opts.runAt ?? new Date(), maxAttempts: opts.maxAttempts ?? 8 });
}

/**
 * Polls the jobs table. Claims with FOR UPDATE SKIP LOCKED so several processes share the work; a
 * claimed job carries a lease (locked_until), so a job whose process died is picked up again.
 */
export class JobWorker {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Polling and kicks happen only between start() and stop(); runOnce() may be called any time. */
  private started = false;
  private closing = false;
  private lastPrune = 0;
  private idle: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly handlers: Record<string, JobHandler>,
    private readonly log: Log,
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    this.started = true;
    this.closing = false;
    this.schedule(0);
  }

  /** Adds handlers for more queues (features whose work needs the app context). */
  register(handlers: Record<string, JobHandler>): void {
    Object.assign(this.handlers, handlers);
  }

  /** Runs a pass soon (after an enqueue in this process), if the worker was started. */
  kick(): void {
    if (this.started && !this.running) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.started = false;
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    await this.idle;
  }

  private schedule(ms: number) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.idle = this.runOnce()
        .then(() => undefined)
        .finally(() => {
          if (this.started) this.schedule(this.intervalMs);
        });
    }, ms);
    this.timer.unref();
  }

  /** Claims and runs ready jobs until none are left. Returns how many ran. */
  async runOnce(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let count = 0;
    try {
      const queues = Object.keys(this.handlers);
      for (;;) {
        if (this.closing) break;
        const claimed = await this.db.execute<{
          id: number;
          queue: string;
          payload: Record<string, unknown>;
          attempts: number;
          max_attempts: number;
        }>(sql`
          UPDATE jobs SET locked_until = now() + interval '2 minutes', attempts = attempts + 1
          WHERE id IN (
            SELECT id FROM jobs
            WHERE done_at IS NULL AND run_at <= now() AND attempts < max_attempts
              AND (locked_until IS NULL OR locked_until < now())
              AND queue IN (${sql.join(
                queues.map((q) => sql`${q}`),
                sql`, `,
              )})
            ORDER BY run_at LIMIT 10 FOR UPDATE SKIP LOCKED)
          RETURNING id, queue, payload, attempts, max_attempts`);
        if (claimed.rows.length === 0) break;
        for (const job of claimed.rows) {
          count++;
          try {
            await this.handlers[job.queue](job.payload);
            await this.db.execute(
              sql`UPDATE jobs SET done_at = now(), locked_until = NULL, last_error = NULL WHERE id = ${job.id}`,
            );
          } catch (err) {
            const backoffSeconds = Math.min(3600, 2 ** job.attempts * 5);
            this.log.error({ err, jobId: job.id, queue: job.queue }, "job failed");
            await this.db.execute(sql`
              UPDATE jobs SET locked_until = NULL, last_error = ${String((err as Error)?.message ?? err)},
                run_at = now() + make_interval(secs => ${backoffSeconds})
              WHERE id = ${job.id}`);
          }
        }
      }
      // Finished jobs are kept a day for inspection; pruned at most every ten minutes per process.
      if (Date.now() - this.lastPrune > 10 * 60_000) {
        this.lastPrune = Date.now();
        await this.db.execute(sql`DELETE FROM jobs WHERE done_at < now() - interval '1 day'`);
      }
    } catch (err) {
      this.log.error({ err }, "job worker pass failed");
    } finally {
      this.running = false;
    }
    return count;
  }
}
