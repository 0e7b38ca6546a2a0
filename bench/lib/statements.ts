/**
 * Profiling aid: with PG_STAT_STATEMENTS=true (the bundled PostgreSQL loads pg_stat_statements,
 * bench/README.md), a scenario resets the statistics before its measurement and prints the
 * statements that took the most time after it, to stderr. Without the setting both do nothing.
 */
import type pg from "pg";

const enabled = () => process.env.PG_STAT_STATEMENTS === "true";

/** Starts a window of statement statistics. */
export async function resetStatementStats(db: pg.Pool): Promise<void> {
  if (!enabled()) return;
  await db.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  await db.query("SELECT pg_stat_statements_reset()");
}

/** Prints the window's `top` statements by total time: total ms, calls, ms a call, rows, the text. */
export async function printStatementStats(db: pg.Pool, top = 40): Promise<void> {
  if (!enabled()) return;
  const res = await db.query<{ ms: string; calls: string; per: string; rows: string; q: string }>(
    `SELECT calls, round(total_exec_time::numeric, 1) AS ms, round((total_exec_time / calls)::numeric, 3) AS per, rows,
            left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS q
       FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT $1`,
    [top],
  );
  console.error(
    [
      "total ms\tcalls\tms each\trows\tstatement",
      ...res.rows.map((r) => `${r.ms}\t${r.calls}\t${r.per}\t${r.rows}\t${r.q}`),
    ].join("\n"),
  );
}
