import { serverLatencyProbe, sqlCounter, sqlDistribution, sqlOf, type ChildServer, type SqlCount } from "./children";
import { cores, int, pct } from "./format";
import { compare, measure, serverP95Of, type ComparisonRounds, type LoadRequest, type LoadResult } from "./load";
import type { ResultRow, ScenarioOptions } from "./scenario";

/** Seconds of the one-connection measurement after each comparison (at most BENCH_SECONDS). */
export const SINGLE_SECONDS = 5;

type Side = Omit<LoadRequest, "connections" | "serverPid" | "serverLatency" | "sqlCounter">;

/**
 * One endpoint against its bare baseline: `compare` at `connections` (Hearth with its latency probe
 * and SQL counter), then Hearth alone with one connection, charging each SQL statement to its
 * request. Answers the table row (SQL/req from the one-connection run) and a details line for the
 * notes. The Hearth child must run with `serverLatency` and `sqlCount`.
 */
export async function compareEndpoint(input: {
  endpoint: string;
  connections: number;
  hearth: ChildServer;
  hearthRequest: Side;
  baseline: ChildServer;
  baselineRequest: Side;
  /** The response body's size in bytes (Hearth's, which the baseline answers too). */
  responseBytes: number;
  opts: ScenarioOptions;
  /** Skip the one-connection run (e.g. for a spike of many connections, measured elsewhere at one). */
  noSingle?: boolean;
  row?: Partial<ResultRow>;
}): Promise<{ row: ResultRow; detail: string; comparison: ComparisonRounds; single?: LoadResult }> {
  const { endpoint, connections, hearth, baseline, opts } = input;
  const c = await compare(
    endpoint,
    {
      hearth: {
        ...input.hearthRequest,
        connections,
        serverPid: hearth.pid,
        serverLatency: serverLatencyProbe(hearth),
        sqlCounter: sqlCounter(hearth),
      },
      baseline: { ...input.baselineRequest, connections, serverPid: baseline.pid },
    },
    opts,
  );
  const single = input.noSingle
    ? undefined
    : await measure(
        `${endpoint} (1 connection)`,
        {
          ...input.hearthRequest,
          connections: 1,
          serverLatency: serverLatencyProbe(hearth),
          sqlCounter: sqlCounter(hearth, { attribute: true }),
        },
        { seconds: Math.min(opts.seconds, SINGLE_SECONDS), warmupSeconds: Math.min(opts.warmupSeconds, 1) },
      );
  const sql = single ? sqlOf(single.sqlCount!) : undefined;
  if (single) {
    console.error(
      `  ${endpoint}, one connection: ${single.requestsPerSecond.toFixed(0)} req/s, ` +
        `server p50 ${single.server?.p50} ms, p95 ${single.server?.p95} ms; SQL ${sqlDistribution(single.sqlCount!)}`,
    );
  }
  const { requestsPerSecond, p50, p99, non2xx, errors, server, sqlCount } = c.hearth;
  const p95 = serverP95Of(c);
  const row: ResultRow = {
    endpoint,
    connections,
    requestsPerSecond,
    p50,
    p99,
    non2xx,
    errors,
    reference: { label: "bare node:http", requestsPerSecond: c.baseline.requestsPerSecond },
    serverP95: p95.p95,
    sql,
    responseBytes: input.responseBytes,
    ...input.row,
  };
  const windowSql = (s: SqlCount) =>
    `${int(s.statements)} statements for ${int(s.requests)} requests (${(s.statements / s.requests).toFixed(2)} each)`;
  const detail =
    `- ${endpoint}: ${int(input.responseBytes)} bytes; ` +
    (single
      ? `SQL with one connection: ${sqlDistribution(single.sqlCount!)} (${int(single.sqlCount!.statements)} statements ` +
        `sent in the window, ${int(single.sqlCount!.charged)} charged to requests); `
      : "") +
    `at ${int(connections)} connections ${windowSql(sqlCount!)}; ` +
    (server
      ? `inside the server (the round of the median ratio) p50 ${server.p50} ms, p95 ${server.p95} ms, p99 ${server.p99} ms, max ${server.max} ms ` +
        `over ${int(server.count)} requests; `
      : "") +
    (single?.server
      ? `one connection: ${int(single.requestsPerSecond)} req/s, inside the server p50 ${single.server.p50} ms, ` +
        `p95 ${single.server.p95} ms; `
      : "") +
    `the bare server at the client p50 ${c.baseline.p50} ms, p99 ${c.baseline.p99} ms; ` +
    (c.rounds.length > 1 ? `ratio by round ${c.rounds.map((r) => pct(r.ratio)).join(", ")}; ` : "") +
    p95.note +
    // A spike's question is whether every connection got an answer: each round's, not the median's.
    (input.noSingle
      ? `connections left without an answer (errors and timeouts) by round: Hearth ` +
        `${c.rounds.map((r) => int(r.hearth.errors)).join(", ")}, the baseline ${c.rounds.map((r) => int(r.baseline.errors)).join(", ")}; `
      : "") +
    `cores while measuring Hearth: ${cores(c.hearth)}; the baseline: ${cores(c.baseline)}.`;
  return { row, detail, comparison: c, single };
}
