import { appendFileSync } from "node:fs";

/**
 * The fault tests' measurements, one JSON line each, appended to the file FAULTS_REPORT names (set by
 * `npm run bench -- faults`, which runs the same tests for longer); nothing is written otherwise.
 */
export function reportFaultMeasurement(test: "kill" | "outage", values: Record<string, unknown>): void {
  const file = process.env.FAULTS_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify({ test, ...values })}\n`);
}
