import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type pg from "pg";

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
const LOCK_ID = 7243111;

/** Applies pending migrations; an advisory lock keeps several starting processes from racing. */
export async function migrateDatabase(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_ID]);
    try {
      await migrate(drizzle({ client }), { migrationsFolder });
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [LOCK_ID]);
    }
  } finally {
    client.release();
  }
}
