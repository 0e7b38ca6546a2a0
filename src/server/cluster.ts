import cluster, { type Worker } from "node:cluster";
import net from "node:net";
import type { Config } from "./config";
import { prepareDatabase } from "./server";

/**
 * Every core (issue 23, docs/decisions/0021-workers.md). With WORKERS > 1 the first process is a
 * primary that serves nothing itself: it starts (or reaches) the database, migrates and seeds it once,
 * then forks WORKERS processes that share the port and each run the whole app. They are the
 * several-process mode Hearth already has: sessions, jobs, rate limits and realtime live in
 * PostgreSQL, realtime and cache drops fan out through LISTEN/NOTIFY, jobs are claimed once.
 */

type Log = { info: (m: string) => void; warn: (m: string) => void; error: (m: string) => void };

/** What a worker tells its primary. */
export type WorkerMessage = { hearth: "listening"; url: string };

export const isClusterWorker = () => cluster.isWorker;

/** A worker reports to its primary (no-op in a single process). */
export function tellPrimary(message: WorkerMessage): void {
  if (cluster.isWorker) process.send?.(message);
}

const isMessage = (m: unknown): m is WorkerMessage =>
  typeof m === "object" && m !== null && "hearth" in m && typeof (m as { hearth: unknown }).hearth === "string";

/**
 * Runs the primary. Resolves once every worker listens (with the address they share), or exits the
 * process with the first worker's failure code (a port in use: one sentence, from the worker).
 */
export async function runPrimary(
  config: Config,
  log: Log,
  exitCodeOf: (err: unknown) => number | null,
  onSignals: (shutdown: (signal: string) => Promise<void>) => void,
): Promise<{ url: string }> {
  let database: Awaited<ReturnType<typeof prepareDatabase>>;
  try {
    // A port in use is said at once, before the database starts and workers boot to find it.
    await portFree(config.port, config.host);
    database = await prepareDatabase(config, log);
  } catch (err) {
    const code = exitCodeOf(err);
    if (code === null) throw err;
    process.exit(code);
  }
  // Workers run the TypeScript through the project's loader (scripts/loader.mjs), however this
  // process was started (npm start registers it in code; tests start with `--import tsx`).
  cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv) });

  let stopping = false;
  /** Until every first worker listens, a worker that exits failed to start: the primary stops too. */
  let started = false;
  const workers = new Set<Worker>();
  const fork = () => {
    // Workers find the prepared database at its address; the bundled one's lock stays with the primary.
    const worker = cluster.fork({ DATABASE_URL: database.url });
    workers.add(worker);
    worker.on("exit", (code, signal) => {
      workers.delete(worker);
      if (stopping) return;
      if (!started) {
        // It said why (one sentence); the others stop before the database they use, and the primary exits as it did.
        stopping = true;
        void stopWorkers().then(() => database.stop().finally(() => process.exit(code || 1)));
        return;
      }
      log.warn(`A worker stopped (${signal ?? `exit ${code}`}); starting another`);
      fork();
    });
    return worker;
  };

  const stopWorkers = () =>
    Promise.all(
      [...workers].map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.isDead()) return resolve();
            w.once("exit", () => resolve());
            w.process.kill("SIGTERM");
          }),
      ),
    );

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, shutting down ${workers.size} workers`);
    const force = setTimeout(() => {
      log.error("Shutdown took too long; exiting");
      for (const w of workers) w.process.kill("SIGKILL");
      process.exit(1);
    }, 25_000 + config.shutdownDrainMs);
    force.unref();
    await stopWorkers();
    await database.stop();
  };

  // From the first fork on, SIGTERM stops the workers and then the database, even while they start
  // (the first to listen already answers, so a stop can come before the last one does).
  onSignals(async (signal) => {
    await shutdown(signal);
    log.info("Stopped cleanly");
    process.exit(0);
  });
  const first = Array.from({ length: config.workers }, () => fork());
  const url = await new Promise<string>((resolve) => {
    let listening = 0;
    let address = "";
    for (const worker of first) {
      worker.on("message", (m: unknown) => {
        if (!isMessage(m) || m.hearth !== "listening") return;
        address = m.url;
        if (++listening === first.length) {
          started = true;
          resolve(address);
        }
      });
    }
  });
  return { url };
}

/** Rejects with EADDRINUSE (or what binding says) when the port cannot be listened on; port 0 is always free. */
function portFree(port: number, host: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

const LOADER = new URL("../../scripts/loader.mjs", import.meta.url).href;

/** This process's node options without its TypeScript loader (tsx or ours), then ours. */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const isLoader = (specifier: string) => specifier === "tsx" || specifier.endsWith("loader.mjs");
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i];
    if (arg === "--import" && isLoader(execArgv[i + 1] ?? "")) i++;
    else if (!(arg.startsWith("--import=") && isLoader(arg.slice("--import=".length)))) out.push(arg);
  }
  return [...out, "--import", LOADER];
}
