/**
 * BENCH_WORKERS=N (N > 1): a child server runs as N processes sharing one port, as Hearth does with
 * WORKERS=N (src/server/cluster.ts), and the baselines do the same, so ratios stay fair (issue 23).
 * The first process is the primary: it starts what the workers share (the database), forks them,
 * answers the harness's questions by asking every worker and merging their answers, and stops them
 * when the harness goes away. Workers answer the primary's questions with the same handlers a
 * single-process child answers the harness with.
 */
import cluster, { type Worker } from "node:cluster";

/** Processes per child server (BENCH_WORKERS, default 1). */
export const benchWorkers = (): number => Math.max(1, Number(process.env.BENCH_WORKERS ?? "1") || 1);

export const isBenchWorker = () => cluster.isWorker;

type Reply = { id: number; reply: unknown };
type Ready = { benchReady: true };

/** Forks `count` workers with `env` and resolves once each has said it is ready (workerReady). */
export async function forkWorkers(count: number, env: Record<string, string>): Promise<Worker[]> {
  cluster.setupPrimary({ execArgv: process.execArgv });
  const workers = Array.from({ length: count }, () => cluster.fork(env));
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          const onMessage = (m: Ready | Reply) => {
            if ("benchReady" in m) {
              w.off("message", onMessage);
              resolve();
            }
          };
          w.on("message", onMessage);
          w.once("exit", (code) => reject(new Error(`a bench worker exited (${code}) before it was ready`)));
        }),
    ),
  );
  return workers;
}

/** A worker tells its primary it is ready. */
export const workerReady = () => process.send?.({ benchReady: true } satisfies Ready);

let nextId = 1;

/** Asks one worker a question (answered by its answerParent handlers). */
export function askWorker<T>(worker: Worker, type: string): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve) => {
    const onMessage = (m: Reply | Ready) => {
      if ("id" in m && m.id === id) {
        worker.off("message", onMessage);
        resolve(m.reply as T);
      }
    };
    worker.on("message", onMessage);
    worker.send({ id, type });
  });
}

/** Asks every worker. */
export const askAll = <T>(workers: Worker[], type: string): Promise<T[]> =>
  Promise.all(workers.map((w) => askWorker<T>(w, type)));

/** Stops the workers (SIGTERM) and waits for them. */
export const stopWorkers = (workers: Worker[]): Promise<void> =>
  Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.isDead()) return resolve();
          w.once("exit", () => resolve());
          w.process.kill("SIGTERM");
        }),
    ),
  ).then(() => undefined);

/** A worker stops when its primary goes away (the primary is killed with the harness). */
export function stopWithPrimary(stop: () => Promise<void>): void {
  let stopping = false;
  const go = () => {
    if (stopping) return;
    stopping = true;
    stop().finally(() => process.exit(0));
  };
  process.on("SIGTERM", go);
  process.on("SIGINT", go);
  process.on("disconnect", go);
}

/** Memory of several processes, summed field by field. */
export function sumMemory(all: NodeJS.MemoryUsage[]): NodeJS.MemoryUsage {
  const out = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  for (const m of all) for (const k of Object.keys(out) as (keyof typeof out)[]) out[k] += m[k];
  return out;
}
