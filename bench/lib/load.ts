import autocannon from "autocannon";
import type { ServerLatency, ServerLatencyProbe, SqlCount, SqlCounter } from "./children";
import { cpuWindow, type CpuShare } from "./cpu";

export type LoadRequest = {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** A string, or bytes (e.g. a multipart upload, sent as they are). */
  body?: string | Buffer;
  /** When set, any response whose body differs counts as an error. */
  expectBody?: string;
  /**
   * When set, called with every response body; a response it returns false for counts as an error
   * (for answers that differ per request, such as an upload's new key).
   */
  verifyBody?: (body: string) => boolean;
  connections: number;
  /** The server's pid, to report the CPU its process tree used during the measurement. */
  serverPid?: number;
  /** Reset before the measured seconds and read after them (and the settle pause). */
  serverLatency?: ServerLatencyProbe;
  /** Likewise, for a Hearth child that counts its SQL statements. */
  sqlCounter?: SqlCounter;
  /**
   * Called by autocannon for each connection it opens (e.g. to give every connection its own
   * session and request sequence with `client.setRequests`).
   */
  setupClient?: (client: autocannon.Client) => void;
  /**
   * Awaited after each run (warm-up and measured) and its fixed pause, e.g. to wait until the server
   * has finished slow requests autocannon left in flight, so they do not land in the next run.
   */
  settle?: () => Promise<void>;
  /**
   * Report non-2xx answers, errors and timeouts in the result (`statusCodes`, `non2xx`, `errors`)
   * instead of failing the run: for loads whose goal is to count them (the mixed load).
   */
  reportFailures?: boolean;
};

export type LoadResult = {
  requestsPerSecond: number;
  /** The slowest second of the measured ones (autocannon samples once a second). */
  requestsPerSecondMin: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  /** Average cores used during the measured seconds, by the server, the harness, and the rest of the machine. */
  cpu: CpuShare;
  /** Latency measured inside the server, when the request had a probe. */
  server?: ServerLatency;
  /** SQL statements the server sent during the measured seconds, when the request had a counter. */
  sqlCount?: SqlCount;
  /** Answers by HTTP status during the measured seconds. */
  statusCodes: Record<string, number>;
  /** Socket errors and timeouts (and unexpected bodies) during the measured seconds, apart. */
  socketErrors: number;
  timeouts: number;
};

export class LoadError extends Error {}

const SETTLE_MS = 1000;

async function runOnce(
  label: string,
  req: LoadRequest,
  seconds: number,
  onDone?: () => void,
): Promise<autocannon.Result> {
  const result = await autocannon({
    url: req.url,
    method: req.method ?? "GET",
    headers: req.headers,
    body: req.body,
    expectBody: req.expectBody,
    verifyBody: req.verifyBody && ((body) => req.verifyBody!(typeof body === "string" ? body : String(body ?? ""))),
    setupClient: req.setupClient,
    connections: req.connections,
    duration: seconds,
    timeout: 10,
  });
  onDone?.();
  const problems = result.non2xx + result.errors + result.timeouts + result.mismatches;
  if (problems > 0 && !req.reportFailures) {
    const codes = Object.entries(result.statusCodeStats ?? {})
      .map(([code, s]) => `${code}: ${s.count ?? 0}`)
      .join(", ");
    throw new LoadError(
      `${label}: ${result.non2xx} non-2xx (${codes}), ${result.errors} errors, ${result.timeouts} timeouts, ` +
        `${result.mismatches} unexpected bodies out of ${result.requests.total + result.errors} requests`,
    );
  }
  if (result.requests.total === 0 && !req.reportFailures) throw new LoadError(`${label}: no request completed`);
  // autocannon stops with requests still in flight on the server: let them finish before the next
  // measurement (or a shutdown) so one run's tail does not land in the next.
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  await req.settle?.();
  return result;
}

/**
 * Warms the server up, then measures it with autocannon. Any non-2xx answer, socket error, timeout
 * or unexpected body fails the run: a fast wrong answer is not a result.
 */
export async function measure(
  label: string,
  req: LoadRequest,
  opts: { seconds: number; warmupSeconds: number },
): Promise<LoadResult> {
  if (opts.warmupSeconds > 0) await runOnce(`${label} (warm-up)`, req, opts.warmupSeconds);
  // The CPU window closes when autocannon stops, before the settle pause.
  let cpu: CpuShare | undefined;
  await req.serverLatency?.reset();
  await req.sqlCounter?.reset();
  const endWindow = cpuWindow(req.serverPid);
  const r = await runOnce(label, req, opts.seconds, () => (cpu = endWindow()));
  // Read after the settle pause: requests sent in the measured seconds and answered just after count.
  const server = await req.serverLatency?.read();
  const sqlCount = await req.sqlCounter?.read();
  return {
    requestsPerSecond: r.requests.average,
    requestsPerSecondMin: r.requests.min,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts + r.mismatches,
    cpu: cpu!,
    server,
    sqlCount,
    statusCodes: statusCounts(r),
    socketErrors: r.errors,
    timeouts: r.timeouts,
  };
}

/** autocannon's answers by status code, e.g. `{ "200": 1234, "503": 2 }`. */
export const statusCounts = (r: autocannon.Result): Record<string, number> =>
  Object.fromEntries(
    Object.entries(r.statusCodeStats ?? {})
      .map(([code, s]) => [code, (s as { count?: number }).count ?? 0] as const)
      .filter(([, n]) => n > 0)
      .sort((a, b) => Number(a[0]) - Number(b[0])),
  );

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

export type Comparison = { hearth: LoadResult; baseline: LoadResult; ratio: number };
export type ComparisonRounds = Comparison & { rounds: Comparison[] };

/**
 * Hearth's server p95 of a comparison: a latency of Hearth alone, so the median of its rounds' p95s,
 * not the p95 of the round with the median ratio (which the baseline's own swings choose); and the
 * note that shows each round's.
 */
export function serverP95Of(c: ComparisonRounds): { p95: number | undefined; note: string } {
  const byRound = c.rounds.flatMap((r) => (r.hearth.server ? [r.hearth.server.p95] : []));
  if (byRound.length < 2) return { p95: c.hearth.server?.p95, note: "" };
  return {
    p95: median(byRound),
    note: `server p95 by round ${byRound.map((v) => `${v} ms`).join(", ")} (the table's: their median); `,
  };
}

/**
 * Measures Hearth and its baseline back to back, `rounds` times alternating (baseline first), and
 * keeps the round with the median ratio: on a shared machine both sides of a ratio should see the
 * same neighbours.
 */
export async function compare(
  label: string,
  sides: { hearth: LoadRequest; baseline: LoadRequest },
  opts: { seconds: number; warmupSeconds: number; rounds: number },
): Promise<ComparisonRounds> {
  const rounds: Comparison[] = [];
  for (let i = 0; i < opts.rounds; i++) {
    const suffix = opts.rounds > 1 ? ` round ${i + 1}/${opts.rounds}` : "";
    const baseline = await measure(`${label} baseline${suffix}`, sides.baseline, opts);
    const hearth = await measure(`${label} Hearth${suffix}`, sides.hearth, opts);
    const ratio = hearth.requestsPerSecond / baseline.requestsPerSecond;
    console.error(
      `  ${label}${suffix}: Hearth ${hearth.requestsPerSecond.toFixed(0)} req/s, ` +
        `baseline ${baseline.requestsPerSecond.toFixed(0)} req/s, ratio ${(ratio * 100).toFixed(1)}% ` +
        `(other processes: ${baseline.cpu.others.toFixed(2)} / ${hearth.cpu.others.toFixed(2)} cores)`,
    );
    rounds.push({ hearth, baseline, ratio });
  }
  const sorted = [...rounds].sort((a, b) => a.ratio - b.ratio);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)], rounds };
}
