/**
 * Issue "Hardening", faults: the CI fault tests, run for longer. `src/server/kill.test.ts` kills the
 * server with SIGKILL at a random moment of a write load, round after round, then checks that every
 * acknowledged write is stored and no counter drifted; `src/server/faults.test.ts` stops PostgreSQL
 * under traffic, expects quick 503s and a recovery within 5 s of its return, outage after outage.
 * CI runs 4 kills and 1 outage; this runs BENCH_KILL_ROUNDS (default 40) and BENCH_OUTAGES (default
 * 10), and reports what the tests measured (they append it to FAULTS_REPORT).
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { int } from "../lib/format";
import { median } from "../lib/load";
import { REPO_ROOT, TMP_DIR } from "../lib/paths";
import type { Scenario } from "../lib/scenario";

const KILL_ROUNDS = Number(process.env.BENCH_KILL_ROUNDS ?? 40);
const OUTAGES = Number(process.env.BENCH_OUTAGES ?? 10);

type KillReport = {
  test: "kill";
  rounds: number;
  writers: number;
  requests: number;
  cutOff: number;
  posts: number;
  comments: number;
  likesChecked: number;
  likesUncertain: number;
  drift: Record<string, unknown>;
  startMs: number[];
};
type OutageReport = {
  test: "outage";
  outage: number;
  answers: number;
  unavailable: number;
  medianMs: number;
  maxMs: number;
  recoveredMs: number;
};

const ms = (n: number) => `${Math.round(n)} ms`;

function runTests(report: string, results: string): Promise<{ code: number; seconds: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(REPO_ROOT, "node_modules/vitest/vitest.mjs"),
        "run",
        "src/server/kill.test.ts",
        "src/server/faults.test.ts",
      ],
      {
        cwd: REPO_ROOT,
        stdio: ["ignore", "inherit", "inherit"],
        env: {
          ...process.env,
          KILL_ROUNDS: String(KILL_ROUNDS),
          OUTAGE_ROUNDS: String(OUTAGES),
          FAULTS_REPORT: report,
          VITEST_JSON: results,
        },
      },
    );
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code: code ?? 1, seconds: (performance.now() - t0) / 1000 }));
  });
}

export const faults: Scenario = {
  name: "faults",
  title: "Faults: SIGKILL during writes, PostgreSQL stopped under traffic",
  async run() {
    for (const [name, n] of [
      ["BENCH_KILL_ROUNDS", KILL_ROUNDS],
      ["BENCH_OUTAGES", OUTAGES],
    ] as const) {
      if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number above 0`);
    }
    const dir = path.join(TMP_DIR, "faults");
    mkdirSync(dir, { recursive: true });
    const report = path.join(dir, "report.jsonl");
    const results = path.join(dir, "vitest.json");
    rmSync(report, { force: true });
    const { code, seconds } = await runTests(report, results);
    const lines = readFileSync(report, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as KillReport | OutageReport);
    const kill = lines.find((l): l is KillReport => l.test === "kill");
    const outages = lines.filter((l): l is OutageReport => l.test === "outage");
    if (code !== 0 || !kill || outages.length !== OUTAGES) {
      throw new Error(
        `the fault tests failed (exit ${code}; ${kill ? "kill test reported" : "no kill report"}, ${outages.length} of ${OUTAGES} outages reported); see the output above`,
      );
    }
    const drift = Object.keys(kill.drift).length;
    const answers = outages.reduce((n, o) => n + o.answers, 0);
    const unavailable = outages.reduce((n, o) => n + o.unavailable, 0);
    const recovered = outages.map((o) => o.recoveredMs);
    const answerMs = median(outages.map((o) => o.medianMs));
    const table = [
      "| test | rounds | what was checked | result | goal | met? |",
      "| --- | ---: | --- | --- | --- | --- |",
      `| SIGKILL during writes | ${kill.rounds} | ${int(kill.requests)} write requests from ${kill.writers} members (posts, comments, like toggles, joins), ${int(kill.cutOff)} cut off by a kill; ${int(kill.posts)} acknowledged posts, ${int(kill.comments)} comments and ${int(kill.likesChecked)} likes looked up afterwards (${int(kill.likesUncertain)} likes whose last toggle went unanswered left out) | every acknowledged write present; ${drift === 0 ? "no counter drifted" : `${drift} counters drifted`}; server start (the first, then after each kill) to its first answer: median ${ms(median(kill.startMs))}, max ${ms(Math.max(...kill.startMs))} | no lost write, no drift | ${drift === 0 ? "yes" : "**no**"} |`,
      `| PostgreSQL stopped under traffic | ${outages.length} | ${int(answers)} reads and writes while it was down (${int(unavailable)} answered 503${answers > unavailable ? `, ${int(answers - unavailable)} reads served from memory` : ""}) | answers during the outage: median ${ms(answerMs)}, slowest ${ms(Math.max(...outages.map((o) => o.maxMs)))}; back to normal after PostgreSQL returned: median ${ms(median(recovered))}, slowest ${ms(Math.max(...recovered))} | every answer under 1 s; recovery under 5 s | ${Math.max(...recovered) < 5000 ? "yes" : "**no**"} |`,
    ].join("\n");
    return {
      rows: [],
      notes: [
        table,
        `How it was measured: the CI tests \`src/server/kill.test.ts\` and \`src/server/faults.test.ts\` run with KILL_ROUNDS=${KILL_ROUNDS} and OUTAGE_ROUNDS=${OUTAGES} (CI runs 4 and 1), which append what they measure to a report; ${Math.round(seconds)} s in all. Kills: a real server process (\`src/server/main.ts\`) on the test PostgreSQL takes writes from ${kill.writers} members, one request at a time each, and is killed with SIGKILL 0.3–1.5 s into each round, then started again on the same database; afterwards every post and comment the API acknowledged must be in the database, every like as its last acknowledged toggle left it, and every stored counter (likes, comments, members, posts) equal to a count of its rows. Outages: a Hearth app on a PostgreSQL of its own; the bundled PostgreSQL is stopped, 5 rounds of health, /api/me, directory and create-community requests are sent (each must answer within 1 s, with 503 or a read served from memory), PostgreSQL is started again on the same port, and the time until a whole round answers normally is the recovery.`,
      ],
    };
  },
};
