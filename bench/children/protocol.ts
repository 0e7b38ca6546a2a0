import { mkdirSync } from "node:fs";
import path from "node:path";
import { writeHeapSnapshot } from "node:v8";

/** The line a child server prints on stdout once it accepts requests; the parent waits for it. */
export const READY_PREFIX = "bench:ready ";

/** The line a data-set builder prints on stdout when it is done: this prefix, then the facts as JSON. */
export const DATASET_RESULT_PREFIX = "bench:dataset ";

export type ReadyMessage = { url: string; pid: number };

export function announceReady(url: string): void {
  const message: ReadyMessage = { url, pid: process.pid };
  process.stdout.write(`${READY_PREFIX}${JSON.stringify(message)}\n`);
}

/**
 * Calls `shutdown` when the parent asks (SIGTERM, SIGINT) or goes away (our stdin closes), so a
 * crashed or killed harness never leaves a server, or its bundled PostgreSQL, behind.
 */
export function onParentStop(shutdown: (reason: string) => Promise<void>): void {
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => {
      console.error(`[bench child ${process.pid}] shutdown took too long; exiting`);
      process.exit(1);
    }, 30_000);
    force.unref();
    shutdown(reason).then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`[bench child ${process.pid}] shutdown failed:`, err);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  process.stdin.on("end", () => stop("parent gone"));
  process.stdin.on("error", () => stop("parent gone"));
  process.stdin.resume();
}

type Handlers = Record<string, () => unknown>;

/**
 * What every child answers: its memory, its memory after a full collection (with --expose-gc), and
 * "heap:snapshot": writes a V8 heap snapshot into BENCH_HEAP_SNAPSHOTS (a folder; the answer is the
 * file's path, or null when the variable is not set). Compare two with bench/tools/heap-diff.ts.
 */
const COMMON: Handlers = {
  memory: () => process.memoryUsage(),
  "heap:snapshot": () => {
    const dir = process.env.BENCH_HEAP_SNAPSHOTS;
    if (!dir) return null;
    mkdirSync(dir, { recursive: true });
    return writeHeapSnapshot(path.join(dir, `hearth-${process.pid}-${Date.now()}.heapsnapshot`));
  },
  "memory:gc": () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage();
  },
};

/**
 * Answers the parent's `{ id, type }` questions over IPC (lib/children.ts `ask`, or a primary's
 * askWorker) with `handlers[type]()` (a value or a promise), read when the question arrives, or with
 * one of COMMON's.
 */
export function answerParent(handlers: Handlers): void {
  process.on("message", (m: { id?: number; type?: string }) => {
    if (m.id === undefined || m.type === undefined) return;
    const handler = handlers[m.type] ?? COMMON[m.type];
    // A handler may answer later (a primary asking its workers).
    void Promise.resolve(handler ? handler() : { error: `unknown message ${m.type}` }).then((reply) =>
      process.send?.({ id: m.id, reply }),
    );
  });
}

export { freePort } from "../../src/server/lib/free-port";
