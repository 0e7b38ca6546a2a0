import { fillPlaceholders, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema/index";

export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle: what services pass down when work must commit together. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Either the database or a transaction on it. */
export type Queryable = Db | Tx;
export type Database = { db: Db; pool: pg.Pool; url: string; close: () => Promise<void> };

// Timestamps without zones and bigints arrive as strings by default; counters fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function connectDatabase(url: string, opts: { max?: number; onError?: (err: Error) => void } = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 30_000,
    query_timeout: 35_000,
  });
  // A dropped idle connection (database restart) must not crash the process.
  pool.on("error", (err) => opts.onError?.(err));
  const db = drizzle({ client: pool, schema, casing: "snake_case" });
  retryDeadlocks(db);
  return { db, pool, url, close: () => pool.end() };
}

/** SQLSTATE 40P01: PostgreSQL ended this transaction so that one it was waiting for in a circle could go on. */
const DEADLOCK_DETECTED = "40P01";
const TRANSACTION_ATTEMPTS = 3;

/** The SQLSTATE of a database error (drizzle's or the driver's), if it has one. */
export const sqlState = (err: unknown): string | undefined => {
  // Drizzle wraps the driver's error (as `cause`).
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === "string") return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
};

/**
 * Runs a top-level transaction again, from the start, when PostgreSQL ends it as a deadlock's
 * victim (at most three attempts). Writes that lock the same rows in different orders meet under
 * load: a like holds its post's row while it notifies the author, and a non-member's first comment
 * on that post joins the community and notifies its admins before it updates the post. The loser
 * rolled back entirely, and transaction bodies only touch the database, so running it again is safe.
 */
function retryDeadlocks(db: Db): void {
  const transaction = db.transaction.bind(db);
  db.transaction = (async (...args: Parameters<Db["transaction"]>) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await transaction(...args);
      } catch (err) {
        if (attempt >= TRANSACTION_ATTEMPTS || sqlState(err) !== DEADLOCK_DETECTED) throw err;
      }
    }
  }) as Db["transaction"];
}

/** The statements given to boundSql (module constants, so few), split once. */
const splitStatements = new Map<string, string[]>();

/**
 * A statement kept as plain text with `$1`, `$2`… (so that tools such as the benchmarks can run or
 * EXPLAIN the very same text) bound to its values for Drizzle.
 */
export function boundSql(text: string, params: readonly unknown[]): SQL {
  let parts = splitStatements.get(text);
  if (!parts) splitStatements.set(text, (parts = text.split(/\$(\d+)/)));
  return sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${params[Number(part) - 1]}`)));
}

const dialect = new PgDialect();
/** Dates, times and intervals (and their arrays) stay as PostgreSQL wrote them, as db.execute leaves them. */
const RAW_TYPES = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  // Arrays (pg names no constants for them): timestamp[], date[], timestamptz[], interval[], numeric[].
  1115,
  1182,
  1185,
  1187,
  1231,
]);
const types = {
  getTypeParser: ((id: number, format?: "text" | "binary") =>
    RAW_TYPES.has(id) ? (v: string) => v : pg.types.getTypeParser(id, format)) as typeof pg.types.getTypeParser,
};
/** Names of prepared statements, by their text (a statement's shapes are few: its optional parts). */
const preparedNames = new Map<string, string>();
const PREPARED_MAX = 500;

/**
 * Runs `query` as a named prepared statement on its connection, so PostgreSQL plans its text once per
 * connection and then reuses the plan (generic once it has seen it five times and found it no worse).
 * For statements whose plan does not depend on their values and whose planning costs as much as
 * running them: search's joins and CTEs took 3 to 6 ms to plan and 5 to 6 ms to run. Outside a
 * transaction only (it takes any connection of the pool).
 */
export async function executePrepared<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return runPrepared<T>(db, text, params);
}

async function runPrepared<T extends Record<string, unknown>>(db: Db, text: string, params: unknown[]): Promise<T[]> {
  let name = preparedNames.get(text);
  if (!name) {
    // Past the cap (a bug making texts unique), statements run unnamed rather than fill every connection.
    name = preparedNames.size < PREPARED_MAX ? `hearth_${preparedNames.size + 1}` : "";
    if (name) preparedNames.set(text, name);
  }
  const client = (db as Db & { $client: pg.Pool }).$client;
  const res = await client.query<T>({ ...(name ? { name } : {}), text, values: params, types });
  return res.rows;
}

/** Statements built by shape (executeShape), as text with their placeholders, by shape key. */
const shapes = new Map<string, { text: string; params: unknown[] }>();

/**
 * executePrepared for a statement that Drizzle would otherwise build again on every call: `build`
 * makes it once per `shape` with `sql.placeholder(name)` for each value, and every call fills those
 * from `values`. The key must name everything that changes the statement's text (its optional parts):
 * two statements under one key would run the first one's text. Search's statement of a hundred joins,
 * CTEs and filters took about 1 ms of Drizzle a request to build.
 */
export async function executeShape<T extends Record<string, unknown>>(
  db: Db,
  shape: string,
  build: () => SQL,
  values: Record<string, unknown>,
): Promise<T[]> {
  let built = shapes.get(shape);
  if (!built) {
    const { sql: text, params } = dialect.sqlToQuery(build());
    built = { text, params };
    if (shapes.size < PREPARED_MAX) shapes.set(shape, built);
  }
  return runPrepared<T>(db, built.text, fillPlaceholders(built.params, values));
}
