/**
 * Issue "Foundation": the cost of the framework, the database round trip and the session lookup,
 * each against a bare node:http server answering the same bytes; and sign-in, which is bounded by
 * argon2id, against that bound.
 */
import os from "node:os";
import { performance } from "node:perf_hooks";
import { hashPassword } from "../../src/server/lib/auth";
import { startBaseline, startHearth } from "../lib/children";
import { DEMO_OWNER, fetchFixed, signIn } from "../lib/hearth-client";
import { compare, measure, median, type ComparisonRounds } from "../lib/load";
import type { ResultRow, Scenario } from "../lib/scenario";
import { cores, pct } from "../lib/format";

const READ_CONNECTIONS = 50;
const SIGN_IN_CONNECTIONS = 4;
/** Issue 23, item 2: GET /api/me signed in at 40% of the bare server, /api/health at 50%. */
const SESSION_LOOKUP_GOAL = 0.4;
const HEALTH_GOAL = 0.5;
const ARGON_SAMPLES = 7;

/** Median wall time of one argon2id hash with the server's own parameters, in ms. */
async function argonHashMs(): Promise<number> {
  await hashPassword("warm-up password");
  const samples: number[] = [];
  for (let i = 0; i < ARGON_SAMPLES; i++) {
    const t0 = performance.now();
    await hashPassword(`benchmark password ${i}`);
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

export const foundation: Scenario = {
  name: "foundation",
  title: "Foundation: health, session lookup, sign-in",
  async run(opts) {
    const rows: ResultRow[] = [];
    const details: string[] = [];
    const cpuCount = os.cpus().length;
    let hashMs: number;

    const hearth = await startHearth({ name: "foundation", nodeArgs: opts.serverNodeArgs });
    try {
      const cookie = await signIn(hearth.url);
      const health = await fetchFixed(`${hearth.url}/api/health`);
      const me = await fetchFixed(`${hearth.url}/api/me`, { cookie });
      const meJson = JSON.parse(me.body.toString()) as { user: { email: string } | null };
      if (meJson.user?.email !== DEMO_OWNER.email) throw new Error(`/api/me did not return the demo owner: ${me.body}`);

      const baseline = await startBaseline("foundation", { "/api/health": health, "/api/me": me });
      try {
        const reads: {
          endpoint: string;
          path: string;
          body: Buffer;
          headers: Record<string, string>;
          goal?: number;
        }[] = [
          { endpoint: "GET /api/health", path: "/api/health", body: health.body, headers: {}, goal: HEALTH_GOAL },
          {
            endpoint: "GET /api/me (signed in)",
            path: "/api/me",
            body: me.body,
            headers: { cookie },
            goal: SESSION_LOOKUP_GOAL,
          },
        ];
        for (const read of reads) {
          const request = { headers: read.headers, expectBody: read.body.toString(), connections: READ_CONNECTIONS };
          const c: ComparisonRounds = await compare(
            read.endpoint,
            {
              hearth: { ...request, url: `${hearth.url}${read.path}`, serverPid: hearth.pid },
              baseline: { ...request, url: `${baseline.url}${read.path}`, serverPid: baseline.pid },
            },
            opts,
          );
          const { cpu: _cpu, ...numbers } = c.hearth;
          rows.push({
            endpoint: read.endpoint,
            connections: READ_CONNECTIONS,
            ...numbers,
            reference: { label: "bare node:http", requestsPerSecond: c.baseline.requestsPerSecond },
            goal: read.goal,
          });
          details.push(
            `- ${read.endpoint}: ` +
              (c.rounds.length > 1 ? `ratio by round ${c.rounds.map((r) => pct(r.ratio)).join(", ")}; ` : "") +
              `cores used while measuring Hearth: ${cores(c.hearth)}; the baseline: ${cores(c.baseline)}.`,
          );
        }
      } finally {
        await baseline.stop();
      }

      // Measured while both servers are idle, in this process: the hash the server does per sign-in.
      hashMs = await argonHashMs();
      const signInResult = await measure(
        "POST /api/auth/sign-in/email",
        {
          url: `${hearth.url}/api/auth/sign-in/email`,
          method: "POST",
          headers: { "content-type": "application/json", origin: hearth.url },
          body: JSON.stringify(DEMO_OWNER),
          connections: SIGN_IN_CONNECTIONS,
          serverPid: hearth.pid,
        },
        opts,
      );
      const { cpu: _cpu, ...numbers } = signInResult;
      rows.push({
        endpoint: "POST /api/auth/sign-in/email",
        connections: SIGN_IN_CONNECTIONS,
        ...numbers,
        reference: { label: `argon2id bound, ${cpuCount} cores`, requestsPerSecond: (cpuCount * 1000) / hashMs },
      });
      details.push(`- POST /api/auth/sign-in/email: cores used while measuring: ${cores(signInResult)}.`);
    } finally {
      await hearth.stop();
    }

    return {
      rows,
      notes: [
        `How it was measured: the Hearth server (production config, bundled PostgreSQL, demo seed, rate limits ` +
          `off) and a bare \`node:http\` server answering the same status, content type and body bytes each run in ` +
          `their own child process; autocannon runs in the harness process on the same machine. Each measurement ` +
          `is ${opts.warmupSeconds} s of warm-up, then ${opts.seconds} s measured; the baseline is measured right ` +
          `before Hearth, ${opts.rounds} round${opts.rounds > 1 ? "s, and the round with the median ratio is shown" : ""}. ` +
          `Reads use ${READ_CONNECTIONS} connections and check every response body byte for byte; sign-in uses ` +
          `${SIGN_IN_CONNECTIONS}. req/s is autocannon's per-second average; any non-2xx answer, error, timeout or ` +
          `wrong body fails the run. Ratio = Hearth req/s ÷ baseline req/s. The bare baseline sends only ` +
          `content-type, content-length, date and keep-alive headers; Hearth also sends its security headers ` +
          `(helmet), which is part of what the ratio measures. The baseline is also bounded by autocannon itself, ` +
          `which shares the machine's ${cpuCount} cores.`,
        `Sign-in verifies one argon2id hash (m=19456 KiB, t=2, p=1) per request. One hash took ` +
          `${hashMs.toFixed(1)} ms here (median of ${ARGON_SAMPLES}), so one core can verify at most ` +
          `${(1000 / hashMs).toFixed(0)} passwords/s and ${cpuCount} cores ${((cpuCount * 1000) / hashMs).toFixed(0)}/s, ` +
          `before any HTTP, database or load-generator work; the sign-in ratio is against that ${cpuCount}-core bound.`,
        `Average cores in use during each measurement (server = its process tree, PostgreSQL included; ` +
          `others = the rest of the shared machine):`,
        details.join("\n"),
      ],
    };
  },
};
