import { benchWorkers } from "../children/workers";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as prettier from "prettier";
import { int, pct } from "./format";
import type { MachineInfo } from "./machine";
import { goalMet, ratioOf, type ResultRow, type Scenario, type ScenarioResult } from "./scenario";

// autocannon reports whole milliseconds for most runs: do not print digits it did not measure.
const ms = (n: number) => `${Number.isInteger(n) ? n : n.toFixed(n < 10 ? 2 : 1)} ms`;
// Slow requests (uploads) run a few per second: keep two decimals below 10/s.
const rate = (n: number) => (n < 10 ? n.toFixed(2) : int(n));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

type Column = { title: string; numeric: boolean; cell: (row: ResultRow) => string };

const COLUMNS: Column[] = [
  { title: "endpoint", numeric: false, cell: (r) => r.endpoint },
  { title: "conns", numeric: true, cell: (r) => String(r.connections) },
  { title: "req/s", numeric: true, cell: (r) => rate(r.requestsPerSecond) },
  { title: "MB/s", numeric: true, cell: (r) => (r.inputMBps === undefined ? "—" : r.inputMBps.toFixed(1)) },
  { title: "p50", numeric: true, cell: (r) => ms(r.p50) },
  { title: "p99", numeric: true, cell: (r) => ms(r.p99) },
  { title: "server p95", numeric: true, cell: (r) => (r.serverP95 === undefined ? "—" : ms(r.serverP95)) },
  {
    title: "SQL/req",
    numeric: true,
    cell: (r) =>
      r.sql === undefined
        ? "—"
        : r.sql.max > r.sql.typical
          ? `${r.sql.typical} (max ${r.sql.max})`
          : `${r.sql.typical}`,
  },
  {
    title: "bytes",
    numeric: true,
    cell: (r) => (r.responseBytes === undefined ? "—" : int(r.responseBytes)),
  },
  {
    title: "RSS growth",
    numeric: true,
    cell: (r) => (r.rssGrowthMb === undefined ? "—" : `${r.rssGrowthMb.toFixed(1)} MB`),
  },
  {
    title: "heap/conn",
    numeric: true,
    cell: (r) => {
      const m = r.heapPerConnection;
      return m === undefined ? "—" : `${kb(m.bytes)} (bare ${kb(m.baselineBytes)})`;
    },
  },
  { title: "non-2xx", numeric: true, cell: (r) => String(r.non2xx) },
  { title: "5xx", numeric: true, cell: (r) => (r.serverErrors === undefined ? "—" : String(r.serverErrors)) },
  { title: "errors", numeric: true, cell: (r) => String(r.errors) },
  {
    title: "baseline req/s",
    numeric: false,
    cell: (r) => (r.reference ? `${rate(r.reference.requestsPerSecond)} (${r.reference.label})` : "—"),
  },
  {
    title: "ratio",
    numeric: true,
    cell: (r) => {
      const ratio = ratioOf(r);
      return ratio === undefined ? "—" : pct(ratio);
    },
  },
  {
    title: "goal",
    numeric: false,
    cell: (r) => {
      const parts = [
        ...(r.goal === undefined ? [] : [`≥ ${Math.round(r.goal * 100)}%`]),
        ...(r.serverP95GoalMs === undefined ? [] : [`p95 < ${r.serverP95GoalMs} ms`]),
        ...(r.sqlGoal === undefined ? [] : [`SQL ≤ ${r.sqlGoal}`]),
        ...(r.rssGrowthGoalMb === undefined ? [] : [`RSS growth < ${r.rssGrowthGoalMb} MB`]),
        ...(r.p99GoalMs === undefined ? [] : [`p99 < ${r.p99GoalMs} ms`]),
        ...(r.heapPerConnectionGoalBytes === undefined
          ? []
          : [`heap ≤ ${r.heapPerConnectionGoalBytes / 1024} KB/conn`]),
        ...(r.noFailuresGoal ? ["0 non-2xx, 0 errors"] : []),
      ];
      return parts.length ? parts.join(", ") : "—";
    },
  },
  {
    title: "met?",
    numeric: false,
    cell: (r) => {
      const met = goalMet(r);
      return met === undefined ? "—" : met ? "yes" : "**no**";
    },
  },
];

// Optional columns only appear when a row has a value, so other scenarios' tables keep their shape.
const OPTIONAL: Record<string, (r: ResultRow) => boolean> = {
  "server p95": (r) => r.serverP95 !== undefined,
  "SQL/req": (r) => r.sql !== undefined,
  bytes: (r) => r.responseBytes !== undefined,
  "MB/s": (r) => r.inputMBps !== undefined,
  "RSS growth": (r) => r.rssGrowthMb !== undefined,
  "heap/conn": (r) => r.heapPerConnection !== undefined,
  "5xx": (r) => r.serverErrors !== undefined,
};
const columnsFor = (rows: ResultRow[]) => COLUMNS.filter((c) => !OPTIONAL[c.title] || rows.some(OPTIONAL[c.title]));

/** A fixed-width table for the terminal. */
export function consoleTable(rows: ResultRow[]): string {
  const cols = columnsFor(rows);
  const data = [cols.map((c) => c.title), ...rows.map((r) => cols.map((c) => c.cell(r).replaceAll("**", "")))];
  const widths = cols.map((_, i) => Math.max(...data.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r.map((c, i) => (cols[i].numeric ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ");
  return [line(data[0]), widths.map((w) => "-".repeat(w)).join("  "), ...data.slice(1).map(line)].join("\n");
}

export function markdownTable(rows: ResultRow[]): string {
  const cols = columnsFor(rows);
  const line = (r: string[]) => `| ${r.join(" | ")} |`;
  const align = cols.map((c) => (c.numeric ? "---:" : "---"));
  return [line(cols.map((c) => c.title)), line(align), ...rows.map((r) => line(cols.map((c) => c.cell(r))))].join("\n");
}

const markers = (name: string) => [`<!-- bench:${name}:start -->`, `<!-- bench:${name}:end -->`] as const;

export function sectionMarkdown(scenario: Scenario, result: ScenarioResult, machine: MachineInfo): string {
  const [start, end] = markers(scenario.name);
  return [
    start,
    `## ${scenario.title}`,
    "",
    `_Generated by \`npm run bench -- ${scenario.name}\`; do not edit by hand between the markers._`,
    "",
    `- Date: ${machine.date}`,
    `- Commit: \`${machine.commit}\`${machine.dirty ? " (plus uncommitted changes in src/ or package files)" : ""}`,
    `- Node: ${machine.node}`,
    `- CPU: ${machine.cpu} × ${machine.cpus} (1-minute load average at start: ${machine.loadAverage.toFixed(2)})`,
    ...(benchWorkers() > 1
      ? [`- Processes: ${benchWorkers()} per Hearth server and per baseline server (BENCH_WORKERS, as WORKERS)`]
      : []),
    "",
    // A scenario that reports something other than request rates writes its own table in its notes.
    ...(result.rows.length ? [markdownTable(result.rows), ""] : []),
    ...result.notes.flatMap((n) => [n, ""]),
    end,
  ].join("\n");
}

const PREAMBLE = `# Performance

Measured by the harness in \`bench/\`: \`npm run bench\` runs every scenario, \`npm run bench -- <scenario>\`
the named ones (\`BENCH_SECONDS\` sets the measured seconds, \`BENCH_ROUNDS\` repeats each comparison and
keeps the round with the median ratio, and the median of the rounds' server p95s, \`BENCH_WORKERS\` runs each Hearth server and each baseline as that many processes on one
port, as \`WORKERS\` does). The machines we measure on are small and shared, so absolute numbers move from run to
run: each Hearth number is reported as a ratio against a baseline measured in the same run, on the same
machine, seconds apart. To see where an endpoint spends its CPU, run
\`node --import tsx bench/tools/profile.ts [--signed-in] <path>\`.

Each scenario below owns the section between its marker comments and rewrites only that section; the
rest of this file is kept as written.
`;

/**
 * Replaces the scenario's marked section in the document (or appends it), leaving the rest untouched,
 * and formats the result with the repository's prettier settings so format checks stay clean.
 */
export async function writeSection(file: string, name: string, section: string): Promise<void> {
  const [start, end] = markers(name);
  const doc = existsSync(file) ? readFileSync(file, "utf8") : PREAMBLE;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  let next: string;
  if (from >= 0 && to > from) {
    next = doc.slice(0, from) + section + doc.slice(to + end.length);
  } else {
    next = `${doc.trimEnd()}\n\n${section}\n`;
  }
  const options = (await prettier.resolveConfig(file)) ?? {};
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, await prettier.format(next, { ...options, filepath: file }));
}
