/**
 * The real Hearth server (bundled PostgreSQL, migrations, demo seed) in its own process, so the
 * load generator in the parent does not share its event loop. Data directory: BENCH_DATA_DIR.
 *
 * BENCH_SERVER_LATENCY=1: every request is timed from the moment Node hands it to the server (the
 * "request" event, before Fastify sees it) to the moment the last byte of the response is handed to
 * the socket ("finish"); the parent resets and reads the percentiles over IPC ("latency:reset",
 * "latency:read"). This is the time spent in this process, queueing behind other requests included,
 * and without the network and the client's own queueing.
 */
import { createHistogram } from "node:perf_hooks";
import { loadConfig } from "../../src/server/config";
import { startServer } from "../../src/server/server";
import { announceReady, freePort, onParentStop } from "./protocol";

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error("BENCH_DATA_DIR is required");

// A fixed port known before start, so the public URL (Better Auth's base URL and trusted origin)
// is the address the benchmark actually talks to.
const port = await freePort();
const config = loadConfig(
  { NODE_ENV: "production", LOG_LEVEL: "warn", SEED_DEMO: "true", RATE_LIMITS: "false", SERVE_WEB: "false" },
  { dataDir, port, publicUrl: `http://127.0.0.1:${port}` },
);
const server = await startServer(config, {
  log: { info: () => {}, warn: console.warn, error: console.error },
  logger: false,
});
onParentStop(() => server.stop());

if (process.env.BENCH_SERVER_LATENCY === "1") {
  const histogram = createHistogram();
  server.app.server.prependListener("request", (_req, res) => {
    const t0 = process.hrtime.bigint();
    res.once("finish", () => histogram.record(process.hrtime.bigint() - t0 || 1n));
  });
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  process.on("message", (m: { id: number; type: string }) => {
    if (m.type === "latency:reset") {
      histogram.reset();
      process.send?.({ id: m.id, reply: null });
    } else if (m.type === "latency:read") {
      const p = (q: number) => (histogram.count ? ms(histogram.percentile(q)) : 0);
      const reply = { count: histogram.count, p50: p(50), p95: p(95), p99: p(99), max: ms(histogram.max) };
      process.send?.({ id: m.id, reply });
    }
  });
}

announceReady(server.url);
