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

export const goalMet = (row: ResultRow): boolean | undefined => {
  const ratio = ratioOf(row);
  return row.goal === undefined || ratio === undefined ? undefined : ratio >= row.goal;
};
