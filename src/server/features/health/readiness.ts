import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AppContext } from "#server/context";

/** How long each readiness check may take before it counts as failed. */
export const READY_CHECK_TIMEOUT_MS = 1_000;
/** A storage that answered stays trusted this long, so frequent probes do not touch it every time. */
const STORAGE_OK_TTL_MS = 5_000;

const journalFile = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../db/migrations/meta/_journal.json");

type Journal = { entries: { idx: number; when: number; tag: string }[] };

/** The migrations this code expects: the newest entry's timestamp, and how many there are. */
function expectedMigrations(): { count: number; lastWhen: number } {
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as Journal;
  return { count: journal.entries.length, lastWhen: Math.max(...journal.entries.map((e) => e.when)) };
}

export type ReadinessChecks = {
  database: "ok" | "unreachable" | "timeout";
  migrations: "ok" | "pending" | "unknown";
  storage: "ok" | "unavailable" | "timeout";
  shutdown: "ok" | "draining";
};

type State = { draining: boolean; migrationsApplied: boolean; storageOkUntil: number };
const states = new WeakMap<AppContext, State>();
function stateOf(ctx: AppContext): State {
  let s = states.get(ctx);
  if (!s) states.set(ctx, (s = { draining: false, migrationsApplied: false, storageOkUntil: 0 }));
  return s;
}

/**
 * From now on this process answers "not ready" (SIGTERM): a load balancer stops sending it new
 * requests while it still serves the ones that reach it.
 */
export function beginDraining(ctx: AppContext): void {
  stateOf(ctx).draining = true;
}

class Timeout extends Error {}

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  // The work goes on after a timeout (a pool query ends by itself); its late failure is not reported.
  work.catch(() => {});
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Timeout()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function checkDatabase(ctx: AppContext): Promise<ReadinessChecks["database"]> {
  try {
    await within(READY_CHECK_TIMEOUT_MS, ctx.pool.query("SELECT 1"));
    return "ok";
  } catch (err) {
    return err instanceof Timeout ? "timeout" : "unreachable";
  }
}

/** Compares the migrations table with the journal shipped with this code. Applied once is applied for good. */
async function checkMigrations(ctx: AppContext, state: State): Promise<ReadinessChecks["migrations"]> {
  if (state.migrationsApplied) return "ok";
  try {
    const res = await within(
      READY_CHECK_TIMEOUT_MS,
      ctx.pool.query<{ n: number; last: string | null }>(
        `SELECT count(*)::int AS n, max(created_at)::text AS last
           FROM drizzle.__drizzle_migrations`,
      ),
    );
    const expected = expectedMigrations();
    const row = res.rows[0];
    const applied = row.n >= expected.count && Number(row.last ?? 0) >= expected.lastWhen;
    if (applied) state.migrationsApplied = true;
    return applied ? "ok" : "pending";
  } catch (err) {
    // No migrations table at all: nothing was applied yet.
    if ((err as { code?: string }).code === "42P01" || (err as { code?: string }).code === "3F000") return "pending";
    return "unknown";
  }
}

async function checkStorage(ctx: AppContext, state: State): Promise<ReadinessChecks["storage"]> {
  if (Date.now() < state.storageOkUntil) return "ok";
  try {
    const ok = await within(READY_CHECK_TIMEOUT_MS, ctx.storage.check());
    if (!ok) return "unavailable";
    state.storageOkUntil = Date.now() + STORAGE_OK_TTL_MS;
    return "ok";
  } catch (err) {
    return err instanceof Timeout ? "timeout" : "unavailable";
  }
}

/** Every check, run side by side; ready only when all are ok. */
export async function readiness(ctx: AppContext): Promise<{ ready: boolean; checks: ReadinessChecks }> {
  const state = stateOf(ctx);
  const [database, storage] = await Promise.all([checkDatabase(ctx), checkStorage(ctx, state)]);
  const migrations = database === "ok" ? await checkMigrations(ctx, state) : state.migrationsApplied ? "ok" : "unknown";
  const checks: ReadinessChecks = {
    database,
    migrations,
    storage,
    shutdown: state.draining ? "draining" : "ok",
  };
  return { ready: Object.values(checks).every((v) => v === "ok"), checks };
}
