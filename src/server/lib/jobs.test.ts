import { spawn } from "node:child_process";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "#server/test/harness";
import {
  backoffDelayMs,
  daily,
  deadJobs,
  DEFAULT_BACKOFF,
  enqueueJob,
  hourly,
  JobWorker,
  retryDeadJob,
  slotAt,
  type JobHandler,
  type JobWorkerOptions,
} from "./jobs";

/**
 * The job queue through the real database. Every test uses queues of its own, which the app's own
 * worker (not started in tests) has no handler for. Nothing waits for time to pass: run_at is
 * compared with what it must be, and the lease test polls for the condition it waits for.
 */
let t: TestApp;
let n = 0;
const quiet = { error: () => {} };
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const queueName = () => `test.${++n}.${Date.now()}`;
const worker = (handlers: Record<string, JobHandler>, opts: JobWorkerOptions = {}) =>
  new JobWorker(t.database.db, handlers, quiet, opts);

type Row = {
  id: number;
  attempts: number;
  status: string;
  last_error: string | null;
  done_at: string | null;
  dead_at: string | null;
  locked_until: string | null;
  singleton_key: string | null;
  /** run_at in ms since the epoch. */
  run_ms: number;
};
async function rows(queue: string): Promise<Row[]> {
  const res = await t.database.db.execute<Row>(sql`
    SELECT *, (extract(epoch FROM run_at) * 1000)::float8 AS run_ms FROM jobs WHERE queue = ${queue} ORDER BY id`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}
const dbNow = async () =>
  (
    await t.database.db.execute<{ ms: number }>(
      sql`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms`,
    )
  ).rows[0].ms;

describe("singleton keys", () => {
  it("keep at most one pending job per key; a done job frees the key", async () => {
    const queue = queueName();
    const first = await enqueueJob(t.database.db, queue, { n: 1 }, { singletonKey: `k:${queue}` });
    const second = await enqueueJob(t.database.db, queue, { n: 2 }, { singletonKey: `k:${queue}` });
    const other = await enqueueJob(t.database.db, queue, { n: 3 }, { singletonKey: `other:${queue}` });
    const plain = await enqueueJob(t.database.db, queue, { n: 4 });
    expect(first).toEqual(expect.any(Number));
    expect(second).toBeNull();
    expect(other).toEqual(expect.any(Number));
    expect(plain).toEqual(expect.any(Number));
    expect((await rows(queue)).map((r) => r.singleton_key)).toEqual([`k:${queue}`, `other:${queue}`, null]);

    const seen: unknown[] = [];
    expect(await worker({ [queue]: async (p) => void seen.push(p.n) }).runOnce()).toBe(3);
    expect(seen.sort()).toEqual([1, 3, 4]);
    expect(await enqueueJob(t.database.db, queue, { n: 5 }, { singletonKey: `k:${queue}` })).toEqual(
      expect.any(Number),
    );
  });

  it("hold under concurrent enqueues", async () => {
    const queue = queueName();
    const ids = await Promise.all(
      Array.from({ length: 8 }, (_, i) => enqueueJob(t.database.db, queue, { i }, { singletonKey: `race:${queue}` })),
    );
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    expect(await rows(queue)).toHaveLength(1);
  });
});

describe("backoff", () => {
  it("doubles from 10 s to an hour, with up to 20% jitter", () => {
    expect(backoffDelayMs(1, DEFAULT_BACKOFF, () => 0)).toBe(10_000);
    expect(backoffDelayMs(2, DEFAULT_BACKOFF, () => 0)).toBe(20_000);
    expect(backoffDelayMs(3, DEFAULT_BACKOFF, () => 0.5)).toBe(44_000);
    expect(backoffDelayMs(20, DEFAULT_BACKOFF, () => 0)).toBe(3_600_000);
    expect(backoffDelayMs(20, DEFAULT_BACKOFF, () => 1)).toBe(4_320_000);
  });

  it("puts a failed job's next attempt that far in the future, and keeps its error", async () => {
    const queue = queueName();
    await enqueueJob(t.database.db, queue, {});
    const w = worker(
      {
        [queue]: async () => {
          throw new Error("flaky");
        },
      },
      { random: () => 0.5 },
    );
    const before = await dbNow();
    expect(await w.runOnce()).toBe(1);
    const after = await dbNow();
    const [job] = await rows(queue);
    const delay = backoffDelayMs(1, DEFAULT_BACKOFF, () => 0.5);
    expect(delay).toBe(11_000);
    expect(job).toMatchObject({ attempts: 1, status: "pending", last_error: "flaky", locked_until: null });
    expect(job.run_ms).toBeGreaterThanOrEqual(before + delay);
    expect(job.run_ms).toBeLessThanOrEqual(after + delay);
    // Not due yet: a second pass leaves it alone.
    expect(await w.runOnce()).toBe(0);
  });
});

describe("dead letters", () => {
  it("keep a job that used up its attempts, with its last error, until retried or pruned", async () => {
    const queue = queueName();
    const id = (await enqueueJob(t.database.db, queue, { what: "webhook" }, { maxAttempts: 2 }))!;
    let calls = 0;
    let fail = true;
    const w = worker({
      [queue]: async () => {
        calls++;
        if (fail) throw new Error(`refused ${calls}`);
      },
    });
    expect(await w.runOnce()).toBe(1);
    await t.database.db.execute(sql`UPDATE jobs SET run_at = now() WHERE id = ${id}`);
    expect(await w.runOnce()).toBe(1);
    const [dead] = await rows(queue);
    expect(dead).toMatchObject({ attempts: 2, status: "dead", last_error: "refused 2", done_at: null });
    expect(dead.dead_at).not.toBeNull();
    // Never claimed again.
    await t.database.db.execute(sql`UPDATE jobs SET run_at = now() WHERE id = ${id}`);
    expect(await w.runOnce()).toBe(0);
    expect(await deadJobs(t.database.db, { queue })).toEqual([
      expect.objectContaining({ id, queue, payload: { what: "webhook" }, attempts: 2, lastError: "refused 2" }),
    ]);

    fail = false;
    expect(await retryDeadJob(t.database.db, id)).toBe(true);
    expect(await retryDeadJob(t.database.db, id)).toBe(false);
    expect(await w.runOnce()).toBe(1);
    expect((await rows(queue))[0]).toMatchObject({ status: "done", attempts: 1, last_error: null });
  });

  it("are buried when the last attempt's process died, and pruned after 30 days (done jobs after a day)", async () => {
    const queue = queueName();
    const { rows: made } = await t.database.db.execute<{ id: string; name: string }>(sql`
      INSERT INTO jobs (queue, payload, attempts, max_attempts, locked_until, done_at, dead_at, last_error)
      VALUES (${queue}, '{"name":"orphan"}', 3, 3, now() - interval '1 second', NULL, NULL, 'boom'),
             (${queue}, '{"name":"old-dead"}', 3, 3, NULL, NULL, now() - interval '31 days', 'x'),
             (${queue}, '{"name":"young-dead"}', 3, 3, NULL, NULL, now() - interval '29 days', 'x'),
             (${queue}, '{"name":"old-done"}', 1, 8, NULL, now() - interval '25 hours', NULL, NULL),
             (${queue}, '{"name":"young-done"}', 1, 8, NULL, now() - interval '23 hours', NULL, NULL)
      RETURNING id, payload->>'name' AS name`);
    expect(made).toHaveLength(5);
    const result = await worker({ [queue]: async () => {} }).prune();
    expect(result.buried).toBeGreaterThanOrEqual(1);
    const left = await t.database.db.execute<{ name: string; status: string; last_error: string }>(sql`
      SELECT payload->>'name' AS name, status, last_error FROM jobs WHERE queue = ${queue} ORDER BY id`);
    expect(left.rows).toEqual([
      { name: "orphan", status: "dead", last_error: "boom (its last attempt stopped with its process)" },
      { name: "young-dead", status: "dead", last_error: "x" },
      { name: "young-done", status: "done", last_error: null },
    ]);
  });
});

describe("recurring schedules", () => {
  it("place slots every period at their offset (UTC)", () => {
    const at = Date.UTC(2026, 10, 26, 14, 47, 12);
    expect(slotAt(at, 60_000)).toBe(Date.UTC(2026, 10, 26, 14, 47));
    expect(slotAt(at, daily("03:30").everyMs, daily("03:30").offsetMs)).toBe(Date.UTC(2026, 10, 26, 3, 30));
    expect(slotAt(at, hourly(50).everyMs, hourly(50).offsetMs)).toBe(Date.UTC(2026, 10, 26, 13, 50));
    expect(() => daily("25:00")).toThrow();
  });

  it("enqueue each slot once, however many workers run the schedule", async () => {
    const queue = queueName();
    const name = `reminders-${queue}`;
    let clock = Date.now() - 3 * 3_600_000;
    const runs: number[] = [];
    const make = () => {
      const w = worker({ [queue]: async () => void runs.push(clock) }, { now: () => clock });
      w.addSchedule({ name, queue, everyMs: 3_600_000, payload: { kind: "reminders" } });
      return w;
    };
    const a = make();
    const b = make();
    await Promise.all([a.runOnce(), b.runOnce(), a.enqueueDueSchedules(), b.enqueueDueSchedules()]);
    // Another process starting later in the same slot finds it taken.
    expect(await make().enqueueDueSchedules()).toBe(0);
    clock += 3_600_000;
    await Promise.all([a.runOnce(), b.runOnce()]);
    await Promise.all([a.runOnce(), b.runOnce()]);

    const jobs = await rows(queue);
    const slot = (ms: number) => `schedule:${name}:${slotAt(ms, 3_600_000)}`;
    expect(jobs.map((j) => j.singleton_key)).toEqual([slot(clock - 3_600_000), slot(clock)]);
    expect(jobs.every((j) => j.status === "done")).toBe(true);
    expect(runs).toHaveLength(2);
    expect(jobs[0].run_ms).toBe(slotAt(clock - 3_600_000, 3_600_000));
  });

  it("refuse a period under a second or an offset outside it", () => {
    const w = worker({});
    expect(() => w.addSchedule({ name: "x", queue: "q", everyMs: 10 })).toThrow();
    expect(() => w.addSchedule({ name: "x", queue: "q", everyMs: 60_000, offsetMs: 60_000 })).toThrow();
  });
});

describe("a worker killed with SIGKILL", () => {
  it("leaves its claimed job to another worker once the lease has run out", async () => {
    const queue = queueName();
    const id = await enqueueJob(t.database.db, queue, { order: 42 });
    const leaseMs = 4_000;
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "src/server/test/job-holder.ts", t.database.url, queue, String(leaseMs)],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, signal) => resolve(signal)),
    );
    let out = "";
    child.stderr!.on("data", (d) => (out += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (d) => {
        out += d;
        if (out.includes("claimed")) resolve();
      });
      child.on("exit", () => reject(new Error(`the job holder exited first: ${out}`)));
    });
    expect(out).toContain('claimed {"order":42}');
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    const seen: unknown[] = [];
    const other = worker({ [queue]: async (p) => void seen.push(p.order) });
    const held = await t.database.db.execute<{ held: boolean }>(
      sql`SELECT locked_until > clock_timestamp() + interval '1 second' AS held FROM jobs WHERE id = ${id}`,
    );
    // While the dead process's lease lasts, the job is not anyone else's.
    if (held.rows[0].held) expect(await other.runOnce()).toBe(0);
    // Then it is: poll until the other worker has run it.
    const deadline = Date.now() + 30_000;
    while (seen.length === 0 && Date.now() < deadline) {
      if ((await other.runOnce()) === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toEqual([42]);
    expect((await rows(queue))[0]).toMatchObject({ status: "done", attempts: 2 });
  }, 60_000);
});

describe("concurrency per queue", () => {
  it("runs up to the queue's limit of a batch at once; other queues stay one at a time", async () => {
    const wide = queueName();
    const narrow = queueName();
    let running = 0;
    let most = 0;
    let release!: () => void;
    const fourRunning = new Promise<void>((resolve) => (release = resolve));
    let narrowRunning = 0;
    let narrowMost = 0;
    const w = worker({
      [wide]: async (p) => {
        running++;
        most = Math.max(most, running);
        if (running === 4) release();
        // Each waits until four run side by side: with one at a time this never resolves.
        await fourRunning;
        running--;
        if (p.fail) throw new Error("declined");
      },
      [narrow]: async () => {
        narrowRunning++;
        narrowMost = Math.max(narrowMost, narrowRunning);
        await new Promise((r) => setImmediate(r));
        narrowRunning--;
      },
    });
    w.setConcurrency(wide, 4);
    expect(() => w.setConcurrency(wide, 0)).toThrow();
    for (let i = 0; i < 8; i++) await enqueueJob(t.database.db, wide, { i, fail: i === 5 });
    for (let i = 0; i < 3; i++) await enqueueJob(t.database.db, narrow, { i });
    expect(await w.runOnce()).toBe(11);
    expect(most).toBe(4);
    expect(narrowMost).toBe(1);
    const done = await rows(wide);
    expect(done.filter((r) => r.done_at !== null)).toHaveLength(7);
    // A failure among concurrent jobs is kept and retried like any other.
    expect(done.find((r) => r.done_at === null)).toMatchObject({ attempts: 1, last_error: "declined" });
    expect((await rows(narrow)).every((r) => r.done_at !== null)).toBe(true);
  });
});

describe("batches", () => {
  it("hands a batch queue's claimed jobs over together, size at a time: the done ones marked, a failed one retried alone", async () => {
    const queue = queueName();
    for (let i = 0; i < 7; i++) await enqueueJob(t.database.db, queue, { n: i });
    const seen: number[][] = [];
    const w = worker({ [queue]: async () => {} });
    w.setBatch(queue, 3, async (jobs) => {
      seen.push(jobs.map((j) => Number(j.payload.n)));
      const bad = jobs.find((j) => j.payload.n === 4);
      return new Map(bad ? [[bad.id, new Error("no answer for 4")]] : []);
    });
    expect(await w.runOnce()).toBe(7);
    expect(seen.map((b) => b.length)).toEqual([3, 3, 1]);
    expect(seen.flat().sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const after = await rows(queue);
    expect(after.filter((r) => r.status === "done")).toHaveLength(6);
    expect(after.find((r) => r.status !== "done")).toMatchObject({
      status: "pending",
      attempts: 1,
      last_error: "no answer for 4",
      locked_until: null,
    });
  });

  it("claims a group's other ready jobs with the oldest ones, and keeps a group in one batch", async () => {
    const queue = queueName();
    for (let i = 0; i < 10; i++) await enqueueJob(t.database.db, queue, { g: i }, { groupKey: `${queue}:g${i}` });
    // Newer than the ten the claim's first pick takes, in the first one's group.
    for (let i = 0; i < 5; i++) await enqueueJob(t.database.db, queue, { g: 0 }, { groupKey: `${queue}:g0` });
    const seen: number[][] = [];
    const w = worker({ [queue]: async () => {} });
    w.setBatch(queue, 3, async (jobs) => {
      seen.push(jobs.map((j) => Number(j.payload.g)));
      return new Map();
    });
    expect(await w.runOnce()).toBe(15);
    const withFirst = seen.filter((b) => b.includes(0));
    expect(withFirst).toHaveLength(1);
    expect(withFirst[0].filter((g) => g === 0)).toHaveLength(6);
    expect((await rows(queue)).every((r) => r.status === "done")).toBe(true);
  });

  it("a batch that throws fails each of its jobs, for a retry", async () => {
    const queue = queueName();
    for (let i = 0; i < 2; i++) await enqueueJob(t.database.db, queue, { n: i });
    const w = worker({ [queue]: async () => {} });
    w.setBatch(queue, 10, async () => {
      throw new Error("database gone");
    });
    await w.runOnce();
    expect(await rows(queue)).toMatchObject([
      { status: "pending", attempts: 1, last_error: "database gone" },
      { status: "pending", attempts: 1, last_error: "database gone" },
    ]);
  });
});
