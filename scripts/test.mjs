// `npm test`: type check, lint, format check, then every test runner. Ends with one line
// "N passed, N failed" summed over all of them, and exits non-zero on any failure.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules/.bin", name);
const results = path.join(root, "test-results");
mkdirSync(results, { recursive: true });

let passed = 0;
let failed = 0;
const lines = [];
// The failed tests by name, printed again in the summary: CI shows only the end of the output. In CI
// a failed test runs once more (vitest.config.ts, playwright.config.ts); one that then passed is
// flaky: counted as passed, and listed with its first failure so it gets fixed.
const failures = [];
const flaky = [];
// eslint-disable-next-line no-control-regex -- the terminal's color codes, removed from messages
const stripColors = (text) => text.replace(/\u001b\[[0-9;]*m/g, "");
const firstLine = (text) =>
  String(text ?? "")
    .split("\n")
    .find((l) => l.trim() !== "") ?? "";

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const res = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { ok: res.status === 0, seconds };
}

function check(label, cmd, args) {
  const { ok, seconds } = run(label, cmd, args);
  if (ok) passed++;
  else failed++;
  lines.push(`${ok ? "ok  " : "FAIL"} ${label} (${seconds} s)`);
}

function runner(label, cmd, args, reportFile, count, failedNames, env) {
  rmSync(reportFile, { force: true });
  const { ok, seconds } = run(label, cmd, args, env);
  let p = 0;
  let f = 0;
  if (existsSync(reportFile)) {
    const report = JSON.parse(readFileSync(reportFile, "utf8"));
    ({ passed: p, failed: f } = count(report));
    const named = failedNames(report);
    for (const name of named.failed) failures.push(name.slice(0, 400));
    for (const name of named.flaky) flaky.push(name.slice(0, 400));
  }
  // A runner that failed without reporting a failed test (crash, no tests) still counts as a failure.
  if (!ok && f === 0) f = 1;
  if (ok && p === 0) f = 1;
  passed += p;
  failed += f;
  lines.push(`${ok && f === 0 ? "ok  " : "FAIL"} ${label}: ${p} passed, ${f} failed (${seconds} s)`);
}

const only = process.argv.slice(2);
const want = (name) => only.length === 0 || only.includes(name);

if (want("static")) {
  check("type check", bin("tsc"), ["-p", "tsconfig.json", "--noEmit"]);
  check("lint", bin("eslint"), [".", "--max-warnings", "0"]);
  check("format", bin("prettier"), ["--check", ".", "--log-level", "warn"]);
  check("API types match the server (npm run gen:api)", process.execPath, [
    "--import",
    "tsx",
    path.join(root, "scripts/gen-api.ts"),
    "--check",
  ]);
  // Builds the web and fails when a first page's JavaScript (gzip) is over its budget.
  check("JavaScript budget (first page at most 150 KB gzip)", process.execPath, [
    path.join(root, "scripts/check-bundle.mjs"),
  ]);
}
if (want("unit")) {
  runner(
    "vitest (shared + server API on PostgreSQL)",
    bin("vitest"),
    ["run"],
    path.join(results, "vitest-results.json"),
    (r) => ({ passed: r.numPassedTests ?? 0, failed: (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0) }),
    (r) => {
      const named = { failed: [], flaky: [] };
      for (const file of r.testResults ?? []) {
        const where = path.relative(root, file.name ?? "");
        let any = false;
        for (const t of file.assertionResults ?? []) {
          const line = `${where} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`;
          if (t.status === "failed") {
            any = true;
            named.failed.push(line);
          } else if (t.status === "passed" && t.failureMessages?.length) named.flaky.push(line);
        }
        if (!any && file.status === "failed") named.failed.push(`${where}: ${firstLine(file.message)}`);
      }
      return named;
    },
  );
}
if (want("e2e")) {
  runner(
    "playwright (Chromium)",
    bin("playwright"),
    ["test"],
    path.join(results, "e2e-results.json"),
    (r) => ({
      passed: (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0),
      failed: r.stats?.unexpected ?? 0,
    }),
    (r) => {
      const named = { failed: [], flaky: [] };
      const walk = (suite, trail) => {
        for (const spec of suite.specs ?? []) {
          for (const test of spec.tests ?? []) {
            if (test.status !== "unexpected" && test.status !== "flaky") continue;
            const first = test.results?.find((res) => res.error);
            const line = `${spec.file}:${spec.line} › ${[...trail, spec.title].join(" › ")}: ${firstLine(first?.error?.message)}`;
            named[test.status === "flaky" ? "flaky" : "failed"].push(line);
          }
        }
        for (const child of suite.suites ?? [])
          walk(child, suite.title && !suite.title.endsWith(".ts") ? [...trail, suite.title] : trail);
      };
      for (const suite of r.suites ?? []) walk(suite, []);
      return named;
    },
  );
}

writeFileSync(path.join(results, "summary.json"), JSON.stringify({ passed, failed }) + "\n");
console.log("\n=== summary ===");
for (const l of lines) console.log(l);
for (const [title, names] of [
  ["failed tests:", failures],
  ["flaky tests (failed, then passed when run again; counted as passed):", flaky],
]) {
  if (names.length === 0) continue;
  console.log(title);
  for (const name of names.slice(0, 20)) console.log(`  ${stripColors(name)}`);
  if (names.length > 20) console.log(`  … and ${names.length - 20} more`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
