/**
 * The real Hearth server (bundled PostgreSQL, migrations, demo seed) in its own process, so the
 * load generator in the parent does not share its event loop. Data directory: BENCH_DATA_DIR.
 */
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
announceReady(server.url);
