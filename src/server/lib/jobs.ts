import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { jobs } from "#server/db/schema/index";

export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;
/**
 * Runs several claimed jobs of one queue together (setBatch). Returns the jobs that failed, by id,
 * with their errors; every other job of the batch is marked done (one statement for the batch).
 */
export type BatchHandler = (jobs: { id: number; payload: Record<string, unknown> }[]) => Promise<Map<number, unknown>>;
type Log = { error: (obj: unknown, msg?: string) => void };

export type EnqueueOptions = {
  runAt?: Date;
  maxAttempts?: number;
  /**
   * At most one pending job per key (the partial unique index jobs_singleton_key): while one waits
   * or runs, enqueueing another with the same key adds nothing. Done and dead jobs do not count.
   */
  singletonKey?: string;
  /** Jobs of one batch queue with the same key are claimed and run in one batch (JobWorker.setBatch). */
  groupKey?: string;
};

/** Adds a job; its id, or null when a pending job already holds its singleton key. */
export async function enqueueJob(
  db: Pick<Db, "insert">,
  queue: string,
  payload: Record<string, unknown>,
  opts: EnqueueOptions = {},
): Promise<number | null> {
  const insert = db.insert(jobs).values({
    queue,
    payload,
    runAt: opts.runAt ?? new Date(),
    maxAttempts: opts.maxAttempts ?? 8,
    singletonKey: opts.singletonKey ?? null,
    groupKey: opts.groupKey ?? null,
  });
  const rows = opts.singletonKey
    ? await insert
        .onConflictDoNothing({ target: jobs.singletonKey, where: PENDING_SINGLETON })
        .returning({ id: jobs.id })
    : await insert.returning({ id: jobs.id });
  return rows[0]?.id ?? null;
}

/** The predicate of jobs_singleton_key (schema/infra.ts), for ON CONFLICT to find the index. */
const PENDING_SINGLETON = sql`singleton_key IS NOT NULL AND done_at IS NULL AND dead_at IS NULL`;

export type Backoff = {
  /** The wait after the first failure is twice this; each further failure doubles it. */
  baseMs: number;
  /** The longest wait (before jitter). */
  maxMs: number;
  /** Up to this fraction more, at random, so jobs that failed together do not retry together. */
  jitter: number;
};

/** 10 s after the first failure, then 20 s, 40 s… up to an hour (the waits jobs always had), plus up to 20%. */
export const DEFAULT_BACKOFF: Backoff = { baseMs: 5_000, maxMs: 3_600_000, jitter: 0.2 };

/** How long a job waits after its `attempts`-th failed attempt: exponential, capped, with jitter. */
export function backoffDelayMs(attempts: number, backoff: Backoff = DEFAULT_BACKOFF, random = Math.random): number {
  const exponential = Math.min(backoff.maxMs, backoff.baseMs * 2 ** attempts);
  return Math.round(exponential * (1 + backoff.jitter * random()));
}

/**
 * A recurring job: every `everyMs`, at `offsetMs` into each period (UTC, counted from the epoch),
 * one job on `queue`. Each slot is enqueued once however many processes run workers with the
 * schedule (job_schedules keeps the last slot, claimed with a conditional upsert); a slot missed
 * while no worker ran is run once when one starts, older ones are not made up.
 */
export type Schedule = {
  name: string;
  queue: string;
  everyMs: number;
  offsetMs?: number;
  payload?: Record<string, unknown>;
  maxAttempts?: number;
};

const DAY_MS = 86_400_000;

/** Every day at hh:mm UTC, for Schedule's everyMs and offsetMs: daily("03:30"). */
export function daily(time: string): { everyMs: number; offsetMs: number } {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!m) throw new Error(`daily(): ${time} is not a time of day as hh:mm`);
  return { everyMs: DAY_MS, offsetMs: (Number(m[1]) * 60 + Number(m[2])) * 60_000 };
}

/** Every hour at mm minutes past, for Schedule's everyMs and offsetMs. */
export function hourly(minute = 0): { everyMs: number; offsetMs: number } {
  if (!Number.isInteger(minute) || minute < 0 || minute > 59) throw new Error(`hourly(): ${minute} is not a minute`);
  return { everyMs: 3_600_000, offsetMs: minute * 60_000 };
}

/** The start of the schedule's period that holds `now` (ms since the epoch). */
export function slotAt(now: number, everyMs: number, offsetMs = 0): number {
  return Math.floor((now - offsetMs) / everyMs) * everyMs + offsetMs;
}

type ClaimedJob = {
  id: number;
  group_key: string | null;
  queue: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
};

export type JobWorkerOptions = {
  /** How often a started worker looks for ready jobs (ms). */
  intervalMs?: number;
  /** How long a claimed job is this worker's; after it, a job whose process died is claimed again. */
  leaseMs?: number;
  backoff?: Partial<Backoff>;
  /** Done jobs are kept this long for inspection, dead ones (dead letters) this long. */
  doneRetentionMs?: number;
  deadRetentionMs?: number;
  /** The clock that places schedules' slots, and jitter's randomness (tests fix them). */
  now?: () => number;
  random?: () => number;
};

/**
 * Polls the jobs table. Claims with FOR UPDATE SKIP LOCKED so several processes share the work; a
 * claimed job carries a lease (locked_until), so a job whose process died is picked up again. A
 * failed job waits (backoffDelayMs) and is tried again until it has used max_attempts; then it is a
 * dead letter (dead_at, its last error kept), deleted after deadRetentionMs.
 */
export class JobWorker {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Polling and kicks happen only between start() and stop(); runOnce() may be called any time. */
  private started = false;
  private closing = false;
  private lastPrune = 0;
  private idle: Promise<void> = Promise.resolve();
  private readonly intervalMs: number;
  private readonly leaseSeconds: number;
  private readonly backoff: Backoff;
  private readonly doneRetentionSeconds: number;
  private readonly deadRetentionSeconds: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly schedules = new Map<string, Schedule>();
  /** The slot this process last enqueued (or found enqueued) per schedule: one query per slot. */
  private readonly scheduledSlots = new Map<string, number>();
  /** Queues whose claimed jobs may run side by side in this process, and how many at once. */
  private readonly concurrency = new Map<string, number>();
  /** Queues whose claimed jobs run together, up to `size` a batch (setBatch). */
  private readonly batches = new Map<string, { size: number; lanes: number; run: BatchHandler }>();

  constructor(
    private readonly db: Db,
    private readonly handlers: Record<string, JobHandler>,
    private readonly log: Log,
    options: number | JobWorkerOptions = {},
  ) {
    const o = typeof options === "number" ? { intervalMs: options } : options;
    this.intervalMs = o.intervalMs ?? 1000;
    this.leaseSeconds = (o.leaseMs ?? 120_000) / 1000;
    this.backoff = { ...DEFAULT_BACKOFF, ...o.backoff };
    this.doneRetentionSeconds = (o.doneRetentionMs ?? DAY_MS) / 1000;
    this.deadRetentionSeconds = (o.deadRetentionMs ?? 30 * DAY_MS) / 1000;
    this.now = o.now ?? Date.now;
    this.random = o.random ?? Math.random;
  }

  start(): void {
    this.started = true;
    this.closing = false;
    this.schedule(0);
  }

  /** Adds handlers for more queues (features whose work needs the app context). */
  register(handlers: Record<string, JobHandler>): void {
    Object.assign(this.handlers, handlers);
  }

  /**
   * Lets up to `n` claimed jobs of `queue` run at once in this process (default 1: one after
   * another). Only for handlers safe side by side: they serialize on their own locks and their
   * writes are idempotent (the payment events, each applied inside its object's advisory lock).
   */
  setConcurrency(queue: string, n: number): void {
    if (!Number.isInteger(n) || n < 1) throw new Error(`setConcurrency(${queue}): ${n} is not a whole number ≥ 1`);
    this.concurrency.set(queue, n);
  }

  /**
   * Hands the claimed jobs of `queue` to `run` together, up to `size` at a time, instead of to its
   * handler one by one (which stays for runs of one). Only for work that shares a lot between jobs
   * and whose effects are idempotent: the payment events, applied per object.
   */
  setBatch(queue: string, size: number, run: BatchHandler, lanes = 1): void {
    if (!Number.isInteger(size) || size < 1 || !Number.isInteger(lanes) || lanes < 1)
      throw new Error(`setBatch(${queue}): ${size} and ${lanes} must be whole numbers ≥ 1`);
    this.batches.set(queue, { size, lanes, run });
  }

  /** Adds a recurring job (its queue needs a handler here too). Each pass enqueues its due slot. */
  addSchedule(schedule: Schedule): void {
    const offset = schedule.offsetMs ?? 0;
    if (!(schedule.everyMs >= 1000) || offset < 0 || offset >= schedule.everyMs) {
      throw new Error(`Schedule ${schedule.name}: everyMs must be at least 1000 and offsetMs within it`);
    }
    this.schedules.set(schedule.name, schedule);
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

  /** Enqueues each schedule's current slot unless some process already did. Returns how many it added. */
  async enqueueDueSchedules(): Promise<number> {
    let added = 0;
    for (const s of this.schedules.values()) {
      const slot = slotAt(this.now(), s.everyMs, s.offsetMs);
      if (this.scheduledSlots.get(s.name) === slot) continue;
      const slotDate = new Date(slot);
      const res = await this.db.execute(sql`
        WITH claimed AS (
          INSERT INTO job_schedules (name, last_slot_at) VALUES (${s.name}, ${slotDate})
          ON CONFLICT (name) DO UPDATE SET last_slot_at = EXCLUDED.last_slot_at
            WHERE job_schedules.last_slot_at < EXCLUDED.last_slot_at
          RETURNING last_slot_at)
        INSERT INTO jobs (queue, payload, run_at, max_attempts, singleton_key)
        SELECT ${s.queue}, ${JSON.stringify(s.payload ?? {})}::jsonb, last_slot_at, ${s.maxAttempts ?? 8},
               ${`schedule:${s.name}:${slot}`}
          FROM claimed
        ON CONFLICT DO NOTHING
        RETURNING id`);
      added += res.rows.length;
      this.scheduledSlots.set(s.name, slot);
    }
    return added;
  }

  /** Claims and runs ready jobs until none are left. Returns how many ran. */
  async runOnce(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let count = 0;
    try {
      if (this.schedules.size > 0) await this.enqueueDueSchedules();
      const queues = Object.keys(this.handlers);
      for (;;) {
        if (this.closing) break;
        const queueList = sql.join(
          queues.map((q) => sql`${q}`),
          sql`, `,
        );
        const ready = sql`done_at IS NULL AND dead_at IS NULL AND run_at <= now() AND attempts < max_attempts
              AND (locked_until IS NULL OR locked_until < now()) AND queue IN (${queueList})`;
        // The oldest ready jobs, and the other ready jobs of their groups (setBatch: a payment
        // event's subscription), so that one batch applies a group's waiting work together. The
        // groups as an array: an index lookup per group (with IN over the CTE the planner, which
        // expects one row from it, joined every pending group's entry to every claimed job: 36 ms).
        const claimed = await this.db.execute<ClaimedJob>(sql`
          WITH first AS (
            SELECT id, group_key FROM jobs WHERE ${ready}
            ORDER BY run_at LIMIT ${this.batchSize()} FOR UPDATE SKIP LOCKED),
          mates AS (
            SELECT id FROM jobs
             WHERE group_key = ANY(ARRAY(SELECT group_key FROM first WHERE group_key IS NOT NULL)) AND ${ready}
               AND id <> ALL(ARRAY(SELECT id FROM first))
             LIMIT ${this.batchSize()} FOR UPDATE SKIP LOCKED)
          UPDATE jobs SET locked_until = now() + make_interval(secs => ${this.leaseSeconds}), attempts = attempts + 1
          WHERE id IN (SELECT id FROM first UNION ALL SELECT id FROM mates)
          RETURNING id, queue, payload, attempts, max_attempts, group_key`);
        if (claimed.rows.length === 0) break;
        count += claimed.rows.length;
        // Jobs of queues without concurrency run one after another, as they always did; a
        // concurrent queue's jobs run up to its limit at once, beside them.
        const lanes = new Map<string, ClaimedJob[]>();
        const batched = new Map<string, ClaimedJob[]>();
        for (const job of claimed.rows) {
          if (this.batches.has(job.queue)) {
            batched.set(job.queue, [...(batched.get(job.queue) ?? []), job]);
            continue;
          }
          const key = (this.concurrency.get(job.queue) ?? 1) > 1 ? job.queue : "";
          lanes.set(key, [...(lanes.get(key) ?? []), job]);
        }
        await Promise.all([
          ...[...batched].map(([queue, list]) => this.runBatches(queue, list)),
          ...[...lanes].map(async ([queue, list]) => {
            const width = queue ? this.concurrency.get(queue)! : 1;
            let next = 0;
            await Promise.all(
              Array.from({ length: Math.min(width, list.length) }, async () => {
                for (let i = next++; i < list.length; i = next++) await this.runJob(list[i]);
              }),
            );
          }),
        ]);
      }
      // Pruned at most every ten minutes per process.
      if (this.now() - this.lastPrune > 10 * 60_000) {
        this.lastPrune = this.now();
        await this.prune();
      }
    } catch (err) {
      this.log.error({ err }, "job worker pass failed");
    } finally {
      this.running = false;
    }
    return count;
  }

  /** Jobs claimed per query: 10, or more when a queue runs more at once or in batches. */
  private batchSize(): number {
    return Math.max(10, ...this.concurrency.values(), ...[...this.batches.values()].map((b) => b.size * b.lanes));
  }

  /**
   * A batch queue's claimed jobs, about `size` at a time: a group's jobs stay in one batch (it may
   * then be larger); the done ones are marked in one statement.
   */
  private async runBatches(queue: string, list: ClaimedJob[]): Promise<void> {
    const { size, lanes, run } = this.batches.get(queue)!;
    const groups = new Map<string, ClaimedJob[]>();
    for (const job of list) {
      const key = job.group_key ?? `job:${job.id}`;
      groups.set(key, [...(groups.get(key) ?? []), job]);
    }
    const chunks: ClaimedJob[][] = [[]];
    for (const group of groups.values()) {
      if (chunks[chunks.length - 1].length >= size) chunks.push([]);
      chunks[chunks.length - 1].push(...group);
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(lanes, chunks.length) }, async () => {
        for (let i = next++; i < chunks.length; i = next++) await this.runBatch(run, chunks[i]);
      }),
    );
  }

  private async runBatch(run: BatchHandler, jobs: ClaimedJob[]): Promise<void> {
    let failures: Map<number, unknown>;
    try {
      failures = await run(jobs.map((j) => ({ id: j.id, payload: j.payload })));
    } catch (err) {
      failures = new Map(jobs.map((j) => [j.id, err]));
    }
    const done = jobs.filter((j) => !failures.has(j.id)).map((j) => j.id);
    if (done.length > 0)
      await this.db.execute(sql`
        UPDATE jobs SET done_at = now(), locked_until = NULL, last_error = NULL WHERE id = ANY(${sql.param(done)}::bigint[])`);
    for (const job of jobs) if (failures.has(job.id)) await this.failed(job, failures.get(job.id));
  }

  private async runJob(job: ClaimedJob): Promise<void> {
    try {
      await this.handlers[job.queue](job.payload);
      await this.db.execute(
        sql`UPDATE jobs SET done_at = now(), locked_until = NULL, last_error = NULL WHERE id = ${job.id}`,
      );
    } catch (err) {
      await this.failed(job, err);
    }
  }

  private async failed(job: { id: number; queue: string; attempts: number; max_attempts: number }, err: unknown) {
    const message = String((err as Error)?.message ?? err);
    if (job.attempts >= job.max_attempts) {
      this.log.error({ err, jobId: job.id, queue: job.queue }, "job failed on its last attempt: kept as a dead letter");
      await this.db.execute(sql`
        UPDATE jobs SET locked_until = NULL, last_error = ${message}, dead_at = now() WHERE id = ${job.id}`);
      return;
    }
    this.log.error({ err, jobId: job.id, queue: job.queue }, "job failed");
    const delaySeconds = backoffDelayMs(job.attempts, this.backoff, this.random) / 1000;
    await this.db.execute(sql`
      UPDATE jobs SET locked_until = NULL, last_error = ${message},
        run_at = now() + make_interval(secs => ${delaySeconds})
      WHERE id = ${job.id}`);
  }

  /**
   * Housekeeping: a job whose process died during its last attempt becomes a dead letter once its
   * lease has run out; done jobs older than doneRetentionMs (a day) and dead ones older than
   * deadRetentionMs (30 days) are deleted. Returns how many were buried and deleted.
   */
  async prune(): Promise<{ buried: number; deleted: number }> {
    const buried = await this.db.execute(sql`
      UPDATE jobs SET dead_at = now(), locked_until = NULL,
        last_error = coalesce(last_error || ' (', '(') || 'its last attempt stopped with its process)'
      WHERE done_at IS NULL AND dead_at IS NULL AND attempts >= max_attempts AND locked_until < now()
      RETURNING id`);
    const deleted = await this.db.execute(sql`
      DELETE FROM jobs
      WHERE done_at < now() - make_interval(secs => ${this.doneRetentionSeconds})
         OR dead_at < now() - make_interval(secs => ${this.deadRetentionSeconds})
      RETURNING id`);
    return { buried: buried.rows.length, deleted: deleted.rows.length };
  }
}

export type DeadJob = {
  id: number;
  queue: string;
  payload: Record<string, unknown>;
  attempts: number;
  lastError: string | null;
  deadAt: Date;
};

/** Dead letters, newest first (a queue's, or all). */
export async function deadJobs(db: Db, opts: { queue?: string; limit?: number } = {}): Promise<DeadJob[]> {
  const rows = await db
    .select({
      id: jobs.id,
      queue: jobs.queue,
      payload: jobs.payload,
      attempts: jobs.attempts,
      lastError: jobs.lastError,
      deadAt: jobs.deadAt,
    })
    .from(jobs)
    .where(and(isNotNull(jobs.deadAt), opts.queue ? eq(jobs.queue, opts.queue) : undefined))
    .orderBy(sql`dead_at DESC`)
    .limit(opts.limit ?? 100);
  return rows as DeadJob[];
}

/**
 * Gives a dead letter a fresh set of attempts, due now. False when it is not dead, or when a
 * pending job already holds its singleton key.
 */
export async function retryDeadJob(db: Db, id: number): Promise<boolean> {
  const res = await db.execute(sql`
    UPDATE jobs j SET dead_at = NULL, attempts = 0, run_at = now(), locked_until = NULL
     WHERE j.id = ${id} AND j.dead_at IS NOT NULL
       AND (j.singleton_key IS NULL OR NOT EXISTS (
             SELECT 1 FROM jobs o WHERE o.singleton_key = j.singleton_key AND o.id <> j.id AND ${PENDING_SINGLETON}))
    RETURNING j.id`);
  return res.rows.length > 0;
}
