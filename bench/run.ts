/**
 * npm run bench                   runs every scenario
 * npm run bench -- foundation     runs the named scenarios only (foundation, communities)
 *
 * Env: BENCH_SECONDS (measured seconds, default 10), BENCH_WARMUP_SECONDS (default 2),
 * BENCH_ROUNDS (alternating baseline/Hearth rounds per comparison, median kept, default 3),
 * BENCH_SERVER_NODE_ARGS (extra node flags for Hearth children, e.g. "--cpu-prof --cpu-prof-dir=.tmp/prof"),
 * BENCH_NO_WRITE=1 (do not update docs/performance.md), BENCH_STRICT=1 (exit 1 when a goal is missed),
 * BENCH_REBUILD_DATA=1 (rebuild prepared data sets, see bench/README.md).
 */
import { stopAllChildren } from "./lib/children";
import { LoadError } from "./lib/load";
import { machineInfo } from "./lib/machine";
import { PERFORMANCE_DOC } from "./lib/paths";
import { consoleTable, sectionMarkdown, writeSection } from "./lib/report";
import { missedGoals, type ScenarioOptions } from "./lib/scenario";
import { SCENARIOS } from "./scenarios/index";

function positive(name: string, fallback: number, { allowZero = false } = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || (!allowZero && n === 0)) throw new Error(`${name} must be a whole number`);
  return n;
}

async function main(): Promise<number> {
  const opts: ScenarioOptions = {
    seconds: positive("BENCH_SECONDS", 10),
    warmupSeconds: positive("BENCH_WARMUP_SECONDS", 2, { allowZero: true }),
    rounds: positive("BENCH_ROUNDS", 3),
    serverNodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(/\s+/).filter(Boolean),
  };
  const names = process.argv.slice(2);
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length) {
    console.error(`Unknown scenario(s): ${unknown.join(", ")}. Known: ${SCENARIOS.map((s) => s.name).join(", ")}`);
    return 2;
  }
  const selected = names.length ? SCENARIOS.filter((s) => names.includes(s.name)) : SCENARIOS;

  let missed = 0;
  for (const scenario of selected) {
    const machine = machineInfo();
    console.error(`\n▶ ${scenario.title} (${opts.seconds} s per measurement, ${opts.warmupSeconds} s warm-up)`);
    const result = await scenario.run(opts);
    console.log(`\n${scenario.title}\n\n${result.rows.length ? consoleTable(result.rows) : result.notes[0]}\n`);
    for (const row of result.rows) {
      const misses = missedGoals(row);
      if (misses.length) {
        missed++;
        console.log(`GOAL MISSED: ${row.endpoint}: ${misses.join("; ")}`);
      }
    }
    if (process.env.BENCH_NO_WRITE !== "1") {
      await writeSection(PERFORMANCE_DOC, scenario.name, sectionMarkdown(scenario, result, machine));
      console.error(`Wrote the "${scenario.name}" section of docs/performance.md`);
    }
  }
  return missed > 0 && process.env.BENCH_STRICT === "1" ? 1 : 0;
}

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping child servers`);
    void stopAllChildren().finally(() => process.exit(130));
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  async (err: unknown) => {
    console.error(`\nBENCHMARK FAILED: ${err instanceof Error ? err.message : String(err)}`);
    if (err instanceof Error && !(err instanceof LoadError) && err.stack) console.error(err.stack);
    await stopAllChildren();
    process.exitCode = 1;
  },
);
