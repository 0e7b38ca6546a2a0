/**
 * Builds a data set (BENCH_DATASET) into a fresh Hearth data directory (BENCH_DATA_DIR): the real
 * server starts on it (bundled PostgreSQL, migrations; demo seed off, so the data set is all there is
 * and a server started later on a copy finds users and skips its seed), the data set's SQL runs on its
 * database, and the server stops. Prints one result line with the data set's facts, then exits.
 */
import pg from "pg";
import { loadConfig } from "../../src/server/config";
import { startServer } from "../../src/server/server";
import { DATASETS } from "../datasets/index";
import { DATASET_RESULT_PREFIX, freePort, onParentStop } from "./protocol";

const dataDir = process.env.BENCH_DATA_DIR;
const dataset = DATASETS[process.env.BENCH_DATASET ?? ""];
if (!dataDir || !dataset) throw new Error("BENCH_DATA_DIR and a known BENCH_DATASET are required");

const t0 = performance.now();
const port = await freePort();
const config = loadConfig(
  { NODE_ENV: "production", LOG_LEVEL: "warn", SEED_DEMO: "false", RATE_LIMITS: "false", SERVE_WEB: "false" },
  { dataDir, port, publicUrl: `http://127.0.0.1:${port}` },
);
const server = await startServer(config, {
  log: { info: () => {}, warn: console.warn, error: console.error },
  logger: false,
});
let client: pg.Client | undefined;
onParentStop(async () => {
  await client?.end().catch(() => {});
  await server.stop();
});
console.error(`server started and migrated: ${((performance.now() - t0) / 1000).toFixed(1)} s`);

try {
  // Our own connection: the server's pool has a 30 s statement timeout, meant for requests.
  client = new pg.Client({ connectionString: server.database.url });
  await client.connect();
  const facts = await dataset.build(client, (line) => console.error(line));
  await client.end();
  client = undefined;
  const t1 = performance.now();
  await server.stop();
  console.error(`server stopped: ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  process.stdout.write(`${DATASET_RESULT_PREFIX}${JSON.stringify(facts)}\n`);
  process.exit(0);
} catch (err) {
  console.error(err);
  await client?.end().catch(() => {});
  await server.stop().catch(() => {});
  process.exit(1);
}
