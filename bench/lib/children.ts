import { int } from "./format";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import type { BaselineRoute } from "../children/baseline-server";
import { READY_PREFIX, type ReadyMessage } from "../children/protocol";
import { BENCH_DIR, REPO_ROOT, TMP_DIR, TS_LOADER } from "./paths";

/** A server running in a child process of the harness. */
export type ChildServer = {
  name: string;
  url: string;
  pid: number;
  stop: () => Promise<void>;
  /** Sends `{ id, type }` over the IPC channel and resolves with the child's `{ id, reply }` (10 s unless told). */
  ask: <T>(type: string, timeoutMs?: number) => Promise<T>;
};

const live = new Set<ChildServer>();

/** Stops every child server still running (used on errors and Ctrl-C). */
export async function stopAllChildren(): Promise<void> {
  await Promise.allSettled([...live].map((c) => c.stop()));
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Runs `bench/children/<script>.ts` with tsx and waits for its ready line. Its other stdout lines
 * and its stderr go to our stderr, prefixed with its name.
 */
export async function spawnChildServer(opts: {
  name: string;
  script: string;
  env?: Record<string, string>;
  nodeArgs?: string[];
  startTimeoutMs?: number;
}): Promise<ChildServer> {
  const file = path.join(BENCH_DIR, "children", `${opts.script}.ts`);
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), "--import", TS_LOADER, file], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ["pipe", "pipe", "pipe", "ipc"],
  });
  const prefix = `[${opts.name}] `;
  createInterface({ input: child.stderr! }).on("line", (line) => process.stderr.write(`${prefix}${line}\n`));

  const ready = await new Promise<ReadyMessage>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${opts.name} did not start within ${opts.startTimeoutMs ?? 120_000} ms`)),
      opts.startTimeoutMs ?? 120_000,
    );
    const onExit = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`${opts.name} exited before it was ready (code ${code}, signal ${signal})`));
    };
    child.once("exit", onExit);
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith(READY_PREFIX)) {
        clearTimeout(timer);
        child.off("exit", onExit);
        resolve(JSON.parse(line.slice(READY_PREFIX.length)) as ReadyMessage);
      } else {
        process.stderr.write(`${prefix}${line}\n`);
      }
    });
  }).catch(async (err: unknown) => {
    child.kill("SIGTERM");
    await waitForExit(child, 30_000);
    throw err;
  });

  let seq = 0;
  const pending = new Map<number, (reply: unknown) => void>();
  child.on("message", (m: { id?: number; reply?: unknown }) => {
    if (typeof m?.id !== "number") return;
    pending.get(m.id)?.(m.reply);
    pending.delete(m.id);
  });
  const ask = <T>(type: string, timeoutMs = 10_000) =>
    new Promise<T>((resolve, reject) => {
      const id = ++seq;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${opts.name} did not answer "${type}"`));
      }, timeoutMs);
      pending.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply as T);
      });
      child.send({ id, type }, (err) => {
        if (!err) return;
        clearTimeout(timer);
        pending.delete(id);
        reject(err);
      });
    });

  let stopping: Promise<void> | undefined;
  const server: ChildServer = {
    ask,
    name: opts.name,
    url: ready.url,
    pid: child.pid!,
    stop: () =>
      (stopping ??= (async () => {
        child.kill("SIGTERM");
        // The Hearth child stops its bundled PostgreSQL before it exits: wait for that.
        if (!(await waitForExit(child, 40_000))) {
          child.kill("SIGKILL");
          await waitForExit(child, 5_000);
          throw new Error(`${opts.name} (pid ${child.pid}) did not stop on SIGTERM and was killed`);
        }
        live.delete(server);
      })()),
  };
  live.add(server);
  return server;
}

/**
 * The real Hearth server on a fresh data directory under .tmp/ (bundled PostgreSQL, demo seed), or
 * on a copy of a prepared one (`template`, see lib/datasets.ts: the copy is made with `cp -a` so the
 * cluster keeps its owner and modes, and removed afterwards). `serverLatency` makes the child time
 * every request from arrival to the last byte handed to the socket (see `serverLatencyProbe`);
 * `sqlCount` makes it count the SQL statements it sends (see `sqlCounter`). `dataDir` is its data
 * directory (disk media are under `media/`).
 */
export async function startHearth(opts: {
  name: string;
  nodeArgs?: string[];
  template?: string;
  serverLatency?: boolean;
  sqlCount?: boolean;
  /** More environment settings for the server (loadConfig's), e.g. Stripe keys or DATABASE_URL. */
  env?: Record<string, string>;
}): Promise<ChildServer & { dataDir: string }> {
  const dataDir = path.join(TMP_DIR, `bench-${opts.name}`);
  rmSync(dataDir, { recursive: true, force: true });
  if (opts.template) execFileSync("cp", ["-a", opts.template, dataDir], { stdio: ["ignore", "ignore", "inherit"] });
  try {
    const server = await spawnChildServer({
      name: `hearth:${opts.name}`,
      script: "hearth-server",
      env: {
        BENCH_DATA_DIR: dataDir,
        ...(opts.serverLatency ? { BENCH_SERVER_LATENCY: "1" } : {}),
        ...(opts.sqlCount ? { BENCH_SQL_COUNT: "1" } : {}),
        ...(opts.env ? { BENCH_HEARTH_ENV: JSON.stringify(opts.env) } : {}),
      },
      nodeArgs: opts.nodeArgs,
    });
    return {
      ...server,
      dataDir,
      stop: async () => {
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/** Server-side latency percentiles (ms) of the requests a Hearth child answered since the last reset. */
export type ServerLatency = { count: number; p50: number; p95: number; p99: number; max: number };
export type ServerLatencyProbe = { reset: () => Promise<void>; read: () => Promise<ServerLatency> };

/** For a Hearth child started with `serverLatency: true`. */
export const serverLatencyProbe = (server: ChildServer): ServerLatencyProbe => ({
  reset: async () => {
    await server.ask("latency:reset");
  },
  read: () => server.ask<ServerLatency>("latency:read"),
});

/**
 * SQL statements a Hearth child (started with `sqlCount: true`) sent since the last reset: all of
 * them (`statements`, background work included), the requests that arrived and finished, the
 * statements charged to those requests, and how many requests made each number of statements.
 */
export type SqlCount = {
  statements: number;
  requests: number;
  finished: number;
  charged: number;
  perRequest: Record<string, number>;
};
export type SqlCounter = { reset: () => Promise<void>; read: () => Promise<SqlCount> };

/**
 * `attribute`: also charge each statement to its request (`charged`, `perRequest`); exact with one
 * connection at a time, and it slows the server a little (AsyncLocalStorage), so leave it off for
 * throughput runs.
 */
export const sqlCounter = (server: ChildServer, opts: { attribute?: boolean } = {}): SqlCounter => ({
  reset: async () => {
    await server.ask(opts.attribute ? "sql:reset:attribute" : "sql:reset");
  },
  read: () => server.ask<SqlCount>("sql:read"),
});

/**
 * A child's `process.memoryUsage()` (bytes), read over IPC; with `collect`, after a full garbage
 * collection (the child must run with --expose-gc, or none is made).
 */
export const serverMemory = (server: ChildServer, opts: { collect?: boolean } = {}): Promise<NodeJS.MemoryUsage> =>
  server.ask<NodeJS.MemoryUsage>(opts.collect ? "memory:gc" : "memory");

/** The connection URL of a Hearth child's database (to check rows or EXPLAIN from the harness). */
export const databaseUrl = (server: ChildServer): Promise<string> => server.ask<string>("database:url");

/** `readBody`: answer only once the request body has been read to its end (for uploads). */
export type FixedResponse = { status: number; contentType: string; body: Buffer; readBody?: boolean };

/** A bare node:http server answering exactly `routes[path]` (status, content type and body bytes). */
export async function startBaseline(name: string, routes: Record<string, FixedResponse>): Promise<ChildServer> {
  const wire: Record<string, BaselineRoute> = Object.fromEntries(
    Object.entries(routes).map(([p, r]) => [
      p,
      {
        status: r.status,
        contentType: r.contentType,
        bodyBase64: r.body.toString("base64"),
        ...(r.readBody ? { readBody: true } : {}),
      },
    ]),
  );
  // In a file, not the environment: one environment string is limited to 128 KiB on Linux, less
  // than a few feed pages.
  mkdirSync(TMP_DIR, { recursive: true });
  const routesFile = path.join(TMP_DIR, `bench-baseline-${name}-${process.pid}.json`);
  writeFileSync(routesFile, JSON.stringify(wire));
  try {
    return await spawnChildServer({
      name: `baseline:${name}`,
      script: "baseline-server",
      env: { BENCH_BASELINE_ROUTES_FILE: routesFile },
    });
  } finally {
    rmSync(routesFile, { force: true });
  }
}

/**
 * A bare node:http Server-Sent Events server (children/sse-baseline-server.ts): it holds every
 * `GET /stream` open and, on `POST /fire`, writes one frame to all of them.
 */
export const startSseBaseline = (name: string, nodeArgs: string[] = []): Promise<ChildServer> =>
  spawnChildServer({ name: `baseline:${name}`, script: "sse-baseline-server", nodeArgs });

/** The SQL statements of a one-connection window: what most requests made, the most, the mean. */
export function sqlOf(count: SqlCount): { typical: number; max: number; mean: number } {
  const entries = Object.entries(count.perRequest).map(([k, v]) => [Number(k), v] as const);
  if (!entries.length) throw new Error("no request was counted");
  const typical = [...entries].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
  return { typical, max: Math.max(...entries.map((e) => e[0])), mean: count.charged / count.finished };
}

/** How many requests made each number of statements, as the reports print it. */
export const sqlDistribution = (count: SqlCount) =>
  Object.entries(count.perRequest)
    .map(([k, v]) => `${k} statements × ${int(v)}`)
    .join(", ");
