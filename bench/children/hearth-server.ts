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
 * Always: "database:url" answers the database URL, so the harness can check rows and EXPLAIN;
 * "memory" answers `process.memoryUsage()` (rss, heapUsed, external, arrayBuffers, in bytes), and
 * "memory:gc" the same after a full collection when node runs with --expose-gc (protocol.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createHistogram } from "node:perf_hooks";
import pg from "pg";
import { loadConfig } from "../../src/server/config";
import { startServer } from "../../src/server/server";
import { announceReady, answerParent, freePort, onParentStop } from "./protocol";

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error("BENCH_DATA_DIR is required");

// A fixed port known before start, so the public URL (Better Auth's base URL and trusted origin)
// is the address the benchmark actually talks to.
const port = await freePort();
// BENCH_HEARTH_ENV: more settings as a JSON object of environment variables (Stripe keys, DATABASE_URL).
const extraEnv = JSON.parse(process.env.BENCH_HEARTH_ENV ?? "{}") as Record<string, string>;
const config = loadConfig(
  {
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    SEED_DEMO: "true",
    RATE_LIMITS: "false",
    SERVE_WEB: "false",
    ...extraEnv,
  },
  { dataDir, port, publicUrl: `http://127.0.0.1:${port}` },
);
const server = await startServer(config, {
  log: { info: () => {}, warn: console.warn, error: console.error },
  logger: false,
});
onParentStop(() => server.stop());

type Handler = () => unknown;
const handlers: Record<string, Handler> = {
  "database:url": () => server.database.url,
};

if (process.env.BENCH_SERVER_LATENCY === "1") {
  const histogram = createHistogram();
  server.app.server.prependListener("request", (_req, res) => {
    const t0 = process.hrtime.bigint();
    res.once("finish", () => histogram.record(process.hrtime.bigint() - t0 || 1n));
  });
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  handlers["latency:reset"] = () => {
    histogram.reset();
    return null;
  };
  handlers["latency:read"] = () => {
    const p = (q: number) => (histogram.count ? ms(histogram.percentile(q)) : 0);
    return { count: histogram.count, p50: p(50), p95: p(95), p99: p(99), max: ms(histogram.max) };
  };
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

announceReady(server.url);
