import { sql, type SQL } from "drizzle-orm";
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
  return { db, pool, url, close: () => pool.end() };
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
