/**
 * The real Hearth server (bundled PostgreSQL, migrations, demo seed) in its own process, so the
 * load generator in the parent does not share its event loop. Data directory: BENCH_DATA_DIR.
 *
 * BENCH_SERVER_LATENCY=1: every request is timed from the moment Node hands it to the server (the
 * "request" event, before Fastify sees it) to the moment the last byte of the response is handed to
 * the socket ("finish"); the parent resets and reads the percentiles over IPC ("latency:reset",
 * "latency:read"). This is the time spent in this process, queueing behind other requests included,
 * and without the network and the client's own queueing.
 *
 * BENCH_SQL_COUNT=1: every statement this process sends to PostgreSQL is counted (node-postgres
 * `Client.prototype.query`, under the server's pool and transactions; BEGIN and COMMIT count as
 * statements), and so are requests. "sql:reset" starts a window, "sql:read" ends it. A window
 * started with "sql:reset:attribute" also charges each statement to the request it runs for (an
 * AsyncLocalStorage store entered on the "request" event): exact when requests never wait for a
 * pooled connection (one connection at a time), since a waiting request's query runs in the context
 * of the request that freed the connection. The window's total (background work included) is
 * reported either way.
 *
 * BENCH_WORKERS=N (N > 1): N Hearth processes on one port, as WORKERS=N runs them (workers.ts): the
 * primary starts the bundled PostgreSQL and migrates and seeds it once, forks the workers, and
 * answers the questions below by asking every worker and merging their answers (latency over all
 * their requests, statements summed, memory summed).
 *
 * Always: "database:url" answers the database URL, so the harness can check rows and EXPLAIN;
 * "memory" answers `process.memoryUsage()` (rss, heapUsed, external, arrayBuffers, in bytes), and
 * "memory:gc" the same after a full collection when node runs with --expose-gc (protocol.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { loadConfig } from "../../src/server/config";
import { prepareDatabase, startServer } from "../../src/server/server";
import { announceReady, answerParent, freePort, onParentStop } from "./protocol";
import {
  askAll,
  benchWorkers,
  forkWorkers,
  isBenchWorker,
  stopWithPrimary,
  stopWorkers,
  sumMemory,
  workerReady,
} from "./workers";

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error("BENCH_DATA_DIR is required");

const workers = benchWorkers();
// A fixed port known before start, so the public URL (Better Auth's base URL and trusted origin)
// is the address the benchmark actually talks to; workers get their primary's.
const port = isBenchWorker() ? Number(process.env.BENCH_WORKER_PORT) : await freePort();
// BENCH_HEARTH_ENV: more settings as a JSON object of environment variables (Stripe keys, DATABASE_URL).
const extraEnv = JSON.parse(process.env.BENCH_HEARTH_ENV ?? "{}") as Record<string, string>;
const config = loadConfig(
  {
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    SEED_DEMO: "true",
    RATE_LIMITS: "false",
    SERVE_WEB: "false",
    // Profiling: the bundled PostgreSQL with pg_stat_statements (bench/README.md).
    ...(process.env.PG_STAT_STATEMENTS ? { PG_STAT_STATEMENTS: process.env.PG_STAT_STATEMENTS } : {}),
    ...extraEnv,
    // A worker reaches the database its primary prepared.
    ...(isBenchWorker() ? { DATABASE_URL: process.env.BENCH_WORKER_DATABASE_URL ?? "" } : {}),
  },
  { dataDir, port, publicUrl: `http://127.0.0.1:${port}` },
);
const log = { info: () => {}, warn: console.warn, error: console.error };

if (workers > 1 && !isBenchWorker()) {
  await runPrimary();
} else {
  await runServer();
}

/** The primary of BENCH_WORKERS processes: the database once, the workers, merged answers. */
async function runPrimary() {
  const database = await prepareDatabase(config, log);
  const forked = await forkWorkers(workers, {
    BENCH_WORKER_PORT: String(port),
    BENCH_WORKER_DATABASE_URL: database.url,
  });
  onParentStop(async () => {
    await stopWorkers(forked);
    await database.stop();
  });
  const broadcast = (type: string) => async () => {
    await askAll(forked, type);
    return null;
  };
  answerParent({
    "database:url": () => database.url,
    "latency:reset": broadcast("latency:reset"),
    "latency:read": async () => latencyOf((await askAll<number[]>(forked, "latency:samples")).flat()),
    "sql:reset": broadcast("sql:reset"),
    "sql:reset:attribute": broadcast("sql:reset:attribute"),
    "sql:read": async () => {
      const all = await askAll<SqlWindow>(forked, "sql:read");
      const perRequest: Record<string, number> = {};
      for (const w of all) for (const [k, v] of Object.entries(w.perRequest)) perRequest[k] = (perRequest[k] ?? 0) + v;
      const sum = (k: "statements" | "requests" | "finished" | "charged") => all.reduce((n, w) => n + w[k], 0);
      return {
        statements: sum("statements"),
        requests: sum("requests"),
        finished: sum("finished"),
        charged: sum("charged"),
        perRequest: Object.fromEntries(Object.entries(perRequest).sort((a, b) => Number(a[0]) - Number(b[0]))),
      };
    },
    memory: async () => sumMemory(await askAll<NodeJS.MemoryUsage>(forked, "memory")),
    "memory:gc": async () => sumMemory(await askAll<NodeJS.MemoryUsage>(forked, "memory:gc")),
  });
  announceReady(`http://127.0.0.1:${port}`);
}

type SqlWindow = {
  statements: number;
  requests: number;
  finished: number;
  charged: number;
  perRequest: Record<string, number>;
};

const round = (ms: number) => Math.round(ms * 100) / 100;

/** Percentiles (ms) of request times in ms. */
function latencyOf(samples: number[]) {
  const sorted = Float64Array.from(samples).sort();
  const p = (q: number) => (sorted.length ? round(sorted[Math.max(0, Math.ceil((q / 100) * sorted.length) - 1)]) : 0);
  return { count: sorted.length, p50: p(50), p95: p(95), p99: p(99), max: sorted.length ? round(sorted.at(-1)!) : 0 };
}

/** One Hearth process: the whole server (a worker: on its primary's database), answering questions. */
async function runServer() {
  const server = await startServer(config, { log, logger: false, databaseReady: isBenchWorker() });
  if (isBenchWorker()) stopWithPrimary(() => server.stop());
  else onParentStop(() => server.stop());

  type Handler = () => unknown;
  const handlers: Record<string, Handler> = {
    "database:url": () => server.database.url,
  };

  if (process.env.BENCH_SERVER_LATENCY === "1") {
    let samples: number[] = [];
    server.app.server.prependListener("request", (_req, res) => {
      const t0 = process.hrtime.bigint();
      res.once("finish", () => samples.push(Number(process.hrtime.bigint() - t0 || 1n) / 1e6));
    });
    handlers["latency:reset"] = () => {
      samples = [];
      return null;
    };
    handlers["latency:read"] = () => latencyOf(samples);
    handlers["latency:samples"] = () => samples;
  }

  if (process.env.BENCH_SQL_COUNT === "1") {
    type Store = { statements: number };
    const storage = new AsyncLocalStorage<Store>();
    // Charging statements to requests needs AsyncLocalStorage, which on Node 20 hooks every promise:
    // it is on only in windows started with "sql:reset:attribute", so throughput runs do not pay for it.
    let attribute = false;
    let window = { statements: 0, requests: 0, finished: 0, charged: 0, perRequest: new Map<number, number>() };
    const original = pg.Client.prototype.query;
    // One wrapper for every overload: count, charge the current request, and pass everything through.
    pg.Client.prototype.query = function query(this: pg.Client, ...args: unknown[]) {
      window.statements++;
      const store = attribute ? storage.getStore() : undefined;
      if (store) store.statements++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    server.app.server.prependListener("request", (_req, res) => {
      const counted = window;
      counted.requests++;
      if (!attribute) return;
      const store: Store = { statements: 0 };
      storage.enterWith(store);
      res.once("finish", () => {
        if (counted !== window) return;
        counted.finished++;
        counted.charged += store.statements;
        counted.perRequest.set(store.statements, (counted.perRequest.get(store.statements) ?? 0) + 1);
      });
    });
    const reset = (charge: boolean) => {
      window = { statements: 0, requests: 0, finished: 0, charged: 0, perRequest: new Map() };
      attribute = charge;
      if (!charge) storage.disable();
      return null;
    };
    handlers["sql:reset"] = () => reset(false);
    handlers["sql:reset:attribute"] = () => reset(true);
    handlers["sql:read"] = () => ({
      statements: window.statements,
      requests: window.requests,
      finished: window.finished,
      charged: window.charged,
      perRequest: Object.fromEntries([...window.perRequest.entries()].sort((a, b) => a[0] - b[0])),
    });
  }

  answerParent(handlers);

  if (isBenchWorker()) workerReady();
  else announceReady(server.url);
}
