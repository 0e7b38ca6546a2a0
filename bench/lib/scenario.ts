/** One line of a scenario's results table. */
export type ResultRow = {
  endpoint: string;
  connections: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** What the row is compared with: a bare server's req/s, or a computed bound. */
  reference?: { label: string; requestsPerSecond: number };
  /** Minimum acceptable Hearth ÷ reference ratio, when the issue sets one. */
  goal?: number;
  /** 95th percentile latency measured inside the server (ms), when the scenario measures it. */
  serverP95?: number;
  /** serverP95 must stay below this (ms), when the issue sets such a goal. */
  serverP95GoalMs?: number;
  /**
   * SQL statements per request, counted inside the server: what most requests made (`typical`),
   * the most any made, and the mean, when the scenario counts them.
   */
  sql?: { typical: number; max: number; mean: number };
  /** `sql.typical` must not exceed this, when the issue sets such a goal. */
  sqlGoal?: number;
  /** Size of the response body in bytes, when the scenario reports it. */
  responseBytes?: number;
  /** Request body received per second, in MB (MiB, as upload limits count them), when the scenario reports it. */
  inputMBps?: number;
  /** Growth of the server process's resident memory during the row's requests (peak − before, MB), when sampled. */
  rssGrowthMb?: number;
  /** rssGrowthMb must stay below this (MB), when the issue sets such a goal. */
  rssGrowthGoalMb?: number;
  /**
   * The server process's V8 heap per open connection (after a full collection), and the baseline's
   * (bytes), when the scenario measures it.
   */
  heapPerConnection?: { bytes: number; baselineBytes: number };
  /** heapPerConnection.bytes must not exceed this, when the issue sets such a goal. */
  heapPerConnectionGoalBytes?: number;
  /** p99 must stay below this (ms), when the issue sets such a goal. */
  p99GoalMs?: number;
  /** Answers with a 5xx status, when the scenario counts them apart. */
  serverErrors?: number;
  /** Every answer must be 2xx, with no socket error or timeout (a load whose goal is to never fail). */
  noFailuresGoal?: boolean;
};

export type ScenarioResult = {
  rows: ResultRow[];
  /** Markdown paragraphs printed under the table (method, bounds, caveats). */
  notes: string[];
};

export type ScenarioOptions = {
  /** Measured seconds per run (BENCH_SECONDS). */
  seconds: number;
  /** Warm-up seconds before each measured run (BENCH_WARMUP_SECONDS). */
  warmupSeconds: number;
  /** Alternating baseline/Hearth rounds per comparison, median kept (BENCH_ROUNDS). */
  rounds: number;
  /** Extra node flags for Hearth server children, e.g. --cpu-prof (BENCH_SERVER_NODE_ARGS). */
  serverNodeArgs: string[];
};

export type Scenario = {
  /** The argv name (`npm run bench -- <name>`) and the docs marker (`bench:<name>:start`). */
  name: string;
  /** The `##` heading of its section in docs/performance.md. */
  title: string;
  run: (opts: ScenarioOptions) => Promise<ScenarioResult>;
};

export const ratioOf = (row: ResultRow): number | undefined =>
  row.reference ? row.requestsPerSecond / row.reference.requestsPerSecond : undefined;

/** The goals the row misses, in words (empty when it meets them all or has none). */
export function missedGoals(row: ResultRow): string[] {
  const missed: string[] = [];
  const ratio = ratioOf(row);
  if (row.goal !== undefined && ratio !== undefined && ratio < row.goal) {
    missed.push(`below ${(row.goal * 100).toFixed(0)}% of its baseline`);
  }
  if (row.serverP95GoalMs !== undefined && row.serverP95 !== undefined && !(row.serverP95 < row.serverP95GoalMs)) {
    missed.push(`server p95 ${row.serverP95} ms is not under ${row.serverP95GoalMs} ms`);
  }
  if (row.sqlGoal !== undefined && row.sql !== undefined && row.sql.typical > row.sqlGoal) {
    missed.push(`${row.sql.typical} SQL statements per request, more than ${row.sqlGoal}`);
  }
  if (row.rssGrowthGoalMb !== undefined && row.rssGrowthMb !== undefined && !(row.rssGrowthMb < row.rssGrowthGoalMb)) {
    missed.push(`resident memory grew ${row.rssGrowthMb.toFixed(1)} MB, not under ${row.rssGrowthGoalMb} MB`);
  }
  if (row.p99GoalMs !== undefined && !(row.p99 < row.p99GoalMs)) {
    missed.push(`p99 ${row.p99.toFixed(1)} ms is not under ${row.p99GoalMs} ms`);
  }
  if (
    row.heapPerConnectionGoalBytes !== undefined &&
    row.heapPerConnection !== undefined &&
    row.heapPerConnection.bytes > row.heapPerConnectionGoalBytes
  ) {
    missed.push(
      `heap per connection ${(row.heapPerConnection.bytes / 1024).toFixed(1)} KB, over ${row.heapPerConnectionGoalBytes / 1024} KB`,
    );
  }
  if (row.noFailuresGoal && (row.non2xx > 0 || row.errors > 0)) {
    missed.push(
      `${row.non2xx} non-2xx answers (${row.serverErrors ?? "?"} of them 5xx) and ${row.errors} errors or timeouts`,
    );
  }
  return missed;
}

/** Whether the row meets its goals; undefined when it has none that could be checked. */
export const goalMet = (row: ResultRow): boolean | undefined => {
  const checkable =
    (row.goal !== undefined && ratioOf(row) !== undefined) ||
    (row.serverP95GoalMs !== undefined && row.serverP95 !== undefined) ||
    (row.sqlGoal !== undefined && row.sql !== undefined) ||
    (row.rssGrowthGoalMb !== undefined && row.rssGrowthMb !== undefined) ||
    row.p99GoalMs !== undefined ||
    (row.heapPerConnectionGoalBytes !== undefined && row.heapPerConnection !== undefined) ||
    row.noFailuresGoal === true;
  return checkable ? missedGoals(row).length === 0 : undefined;
};
