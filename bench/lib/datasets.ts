import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { DATASET_RESULT_PREFIX } from "../children/protocol";
import { DATASETS } from "../datasets/index";
import { BENCH_DIR, REPO_ROOT, TMP_DIR, TS_LOADER } from "./paths";

/** Where prepared data directories live: `<name>-<key>/` (a Hearth DATA_DIR) and `<name>-<key>.json`. */
export const DATASETS_DIR = path.join(TMP_DIR, "bench-data");
const MIGRATIONS_DIR = path.join(REPO_ROOT, "src", "server", "db", "migrations");

export type PreparedDataset<F> = {
  name: string;
  key: string;
  /** A stopped Hearth data directory holding the data set: copy it, never run on it. */
  dir: string;
  builtAt: string;
  buildSeconds: number;
  /** False when this call built it. */
  reused: boolean;
  facts: F;
};

/**
 * The key of a data set: its name and version, its definition file, and every migration (a schema
 * change rebuilds it rather than migrating an old copy).
 */
export function datasetKey(name: string): string {
  const def = DATASETS[name];
  if (!def) throw new Error(`Unknown data set ${name}`);
  const hash = createHash("sha256").update(`${def.name}:${def.version}\n`);
  hash.update(readFileSync(path.join(REPO_ROOT, def.file)));
  const migrations = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith(".sql"));
  for (const f of migrations.sort()) hash.update(`${f}\n`).update(readFileSync(path.join(MIGRATIONS_DIR, f)));
  return hash.digest("hex").slice(0, 12);
}

function runBuilder(name: string, dataDir: string): Promise<unknown> {
  const child = spawn(process.execPath, ["--import", TS_LOADER, path.join(BENCH_DIR, "children", "build-dataset.ts")], {
    cwd: REPO_ROOT,
    env: { ...process.env, BENCH_DATA_DIR: dataDir, BENCH_DATASET: name },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const prefix = `[dataset:${name}] `;
  let facts: unknown;
  createInterface({ input: child.stderr! }).on("line", (line) => process.stderr.write(`${prefix}${line}\n`));
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (line.startsWith(DATASET_RESULT_PREFIX)) facts = JSON.parse(line.slice(DATASET_RESULT_PREFIX.length));
    else process.stderr.write(`${prefix}${line}\n`);
  });
  // If the harness goes away, the builder's stdin closes and it stops its PostgreSQL.
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (code === 0 && facts !== undefined) resolve(facts);
      else reject(new Error(`building the ${name} data set failed (code ${code}, signal ${signal})`));
    });
  });
}

/** This process's answer per data set: several scenarios of one `npm run bench` share one build. */
const prepared = new Map<string, Promise<PreparedDataset<unknown>>>();

/**
 * Returns the prepared data directory of a data set, building it first when there is none for the
 * current key (or BENCH_REBUILD_DATA=1). Builds go to `<dir>.building` and are renamed when complete,
 * so an interrupted build is never reused; older keys of the same data set are removed. Within one
 * run a data set is prepared once, whichever scenarios ask for it (so BENCH_REBUILD_DATA=1 rebuilds
 * it once, not once per scenario); a failed preparation is tried again by the next caller.
 */
export function prepareDataset<F>(name: string): Promise<PreparedDataset<F>> {
  let entry = prepared.get(name);
  if (!entry) {
    entry = prepareOnce<F>(name).catch((err: unknown) => {
      prepared.delete(name);
      throw err;
    });
    prepared.set(name, entry);
  } else {
    entry = entry.then((d) => {
      console.error(`Data set ${d.name}-${d.key}: prepared earlier in this run`);
      return { ...d, reused: true };
    });
  }
  return entry as Promise<PreparedDataset<F>>;
}

async function prepareOnce<F>(name: string): Promise<PreparedDataset<F>> {
  const key = datasetKey(name);
  const dir = path.join(DATASETS_DIR, `${name}-${key}`);
  const manifestFile = `${dir}.json`;
  if (process.env.BENCH_REBUILD_DATA !== "1" && existsSync(manifestFile) && existsSync(dir)) {
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Omit<PreparedDataset<F>, "reused" | "dir">;
    console.error(`Data set ${name}-${key}: reusing ${path.relative(REPO_ROOT, dir)} (built ${manifest.builtAt})`);
    return { ...manifest, dir, reused: true };
  }

  mkdirSync(DATASETS_DIR, { recursive: true });
  for (const entry of readdirSync(DATASETS_DIR)) {
    if (entry.startsWith(`${name}-`)) rmSync(path.join(DATASETS_DIR, entry), { recursive: true, force: true });
  }
  const staging = `${dir}.building`;
  console.error(`Data set ${name}-${key}: building into ${path.relative(REPO_ROOT, staging)}`);
  const t0 = performance.now();
  try {
    const facts = (await runBuilder(name, staging)) as F;
    const buildSeconds = (performance.now() - t0) / 1000;
    renameSync(staging, dir);
    const manifest = { name, key, builtAt: new Date().toISOString().replace(/\.\d+Z$/, "Z"), buildSeconds, facts };
    writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    console.error(`Data set ${name}-${key}: built in ${buildSeconds.toFixed(1)} s`);
    return { ...manifest, dir, reused: false };
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}
