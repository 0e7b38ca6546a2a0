import { execFileSync } from "node:child_process";
import os from "node:os";
import { REPO_ROOT } from "./paths";

export type MachineInfo = {
  date: string;
  commit: string;
  /** The measured server code differs from the commit (others may be editing it). */
  dirty: boolean;
  node: string;
  cpu: string;
  cpus: number;
  loadAverage: number;
};

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "";
  }
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    commit: git(["rev-parse", "--short", "HEAD"]) || "unknown",
    dirty: git(["status", "--porcelain", "--", "src", "package.json", "package-lock.json"]) !== "",
    node: process.version,
    cpu: (cpus[0]?.model ?? "unknown").trim(),
    cpus: cpus.length,
    loadAverage: os.loadavg()[0],
  };
}
