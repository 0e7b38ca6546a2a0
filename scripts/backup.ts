/**
 * Backups and restores of a Hearth installation: the database and the uploaded media.
 *
 *   npm run backup -- <dir>                  writes <dir>/hearth-backup-<time>/ (manifest.json, db/, media/)
 *   npm run restore -- <backup dir> [--force] restores it into this DATA_DIR (or DATABASE_URL)
 *
 * Both read the same settings as the server (DATA_DIR, DATABASE_URL, S3_*). The database is dumped
 * as JSON lines per table from one REPEATABLE READ snapshot and loaded back after the migrations
 * the backup was made at (docs/decisions/0008-backups.md explains why not pg_dump or a file copy).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync } from "node:fs";
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import pg from "pg";
import { ConfigError, loadConfig, type Config } from "../src/server/config";
import { acquireDataDirLock, DataDirInUseError, startEmbeddedPostgres } from "../src/server/db/embedded";
import { createStorage } from "../src/server/lib/storage";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MIGRATIONS = path.join(root, "src/server/db/migrations");
/** Folders the server serves files from: a backup must never be written inside them. */
const SERVED = [path.join(root, "dist/web"), path.join(root, "src/web/public")];
const FORMAT = "hearth-backup";
const FORMAT_VERSION = 1;
const BATCH_ROWS = 1_000;
const BATCH_BYTES = 4 * 1024 * 1024;

export class BackupError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

type Log = (line: string) => void;

export type TableEntry = { file: string; rows: number; sha256: string; digest: string; columns: string[] };
export type Manifest = {
  format: typeof FORMAT;
  formatVersion: number;
  createdAt: string;
  hearthVersion: string;
  source: "bundled" | "external";
  postgresVersion: string;
  database: {
    method: "jsonl-snapshot";
    migrations: { hash: string; createdAt: number }[];
    tables: Record<string, TableEntry>;
    sequences: Record<string, { value: string; isCalled: boolean }>;
    /** A pg_dump archive of the same snapshot, when an external database and a matching pg_dump were there. */
    pgDump: string | null;
    pgDumpNote: string;
  };
  media: {
    storage: "disk" | "s3";
    note: string;
    files: Record<string, { size: number; sha256: string }>;
    /** Ready media rows of the snapshot whose file was gone by the time it was copied (deleted meanwhile). */
    missing: string[];
  };
  authSecret: boolean;
};

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const sha256File = async (file: string) => {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
};

/**
 * An order-independent fingerprint of a table: the sum of each row's SHA-256 (first 16 bytes) over
 * its JSON text. The same rows give the same digest whatever order a scan returns them in.
 */
class Digest {
  private sum = 0n;
  add(line: string) {
    this.sum = (this.sum + BigInt(`0x${createHash("sha256").update(line).digest("hex").slice(0, 32)}`)) % 2n ** 128n;
  }
  toString() {
    return this.sum.toString(16).padStart(32, "0");
  }
}

/** Session settings that make row_to_json's text the same on both sides of a backup. */
const STABLE_TEXT = [
  "SET LOCAL TimeZone = 'UTC'",
  "SET LOCAL DateStyle = 'ISO, YMD'",
  "SET LOCAL IntervalStyle = 'postgres'",
  "SET LOCAL extra_float_digits = 1",
  "SET LOCAL bytea_output = 'hex'",
];

function settings(): Config {
  try {
    // A placeholder secret: backups and restores never sign anything, and must not create DATA_DIR/auth-secret.
    return loadConfig(process.env, { authSecret: "x".repeat(32) });
  } catch (err) {
    if (err instanceof ConfigError) throw new BackupError(err.message, 78);
    throw err;
  }
}

const inside = (child: string, parent: string) => {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
};

type Connection = { url: string; source: "bundled" | "external"; close: () => Promise<void> };

/** The running bundled PostgreSQL of a DATA_DIR (Hearth is up), read from its postmaster.pid. */
function runningBundled(dataDir: string): string | null {
  const pidFile = path.join(dataDir, "postgres", "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  const password = readFileSync(path.join(dataDir, "postgres-password"), "utf8").trim();
  return `postgres://hearth:${encodeURIComponent(password)}@127.0.0.1:${port}/hearth`;
}

/** The database to back up: DATABASE_URL, the bundled one Hearth is running, or the bundled one started here. */
async function sourceDatabase(config: Config, log: Log): Promise<Connection> {
  if (config.databaseUrl) return { url: config.databaseUrl, source: "external", close: async () => {} };
  const running = runningBundled(config.dataDir);
  if (running) return { url: running, source: "bundled", close: async () => {} };
  if (!existsSync(path.join(config.dataDir, "postgres", "PG_VERSION"))) {
    throw new BackupError(`No Hearth database in ${config.dataDir} (set DATA_DIR or DATABASE_URL)`);
  }
  const release = lockDataDir(config.dataDir);
  try {
    const pgdb = await startEmbeddedPostgres(config.dataDir, { info: log, warn: log });
    return {
      url: pgdb.url,
      source: "bundled",
      close: async () => {
        await pgdb.stop();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

function lockDataDir(dataDir: string): () => void {
  try {
    return acquireDataDirLock(dataDir);
  } catch (err) {
    if (err instanceof DataDirInUseError) throw new BackupError(err.message, 75);
    throw err;
  }
}

function pgDumpMajor(): number | null {
  const res = spawnSync("pg_dump", ["--version"], { encoding: "utf8" });
  const m = res.status === 0 ? /(\d+)(?:\.\d+)?/.exec(res.stdout) : null;
  return m ? Number(m[1]) : null;
}

/** Every file under a folder, as keys relative to it (temporary files of unfinished writes left out). */
async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(path.join(dir, prefix), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const out: string[] = [];
  for (const e of entries) {
    const key = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(dir, key)));
    else if (e.isFile() && !e.name.endsWith(".tmp") && !e.name.startsWith(".probe-")) out.push(key);
  }
  return out.sort();
}

/** Copies one file, hashing what was read; null when it went away meanwhile. */
async function copyHashed(from: string, to: string): Promise<{ size: number; sha256: string } | null> {
  await mkdir(path.dirname(to), { recursive: true });
  try {
    await copyFile(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  return { size: (await stat(to)).size, sha256: await sha256File(to) };
}

function timestamp(d = new Date()) {
  return d
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");
}

export async function backup(outParent: string, log: Log = console.log): Promise<string> {
  const config = settings();
  const parent = path.resolve(outParent);
  for (const forbidden of [...SERVED, path.join(config.dataDir, "media"), path.join(config.dataDir, "postgres")]) {
    if (inside(parent, forbidden)) {
      throw new BackupError(
        `Refusing to write a backup inside ${forbidden}: choose a folder that is not served or used by Hearth`,
        2,
      );
    }
  }
  const created = new Date();
  const name = `hearth-backup-${timestamp(created)}`;
  const final = path.join(parent, name);
  const work = `${final}.partial`;
  if (existsSync(final)) throw new BackupError(`${final} already exists`, 2);
  await mkdir(parent, { recursive: true });
  await mkdir(path.join(work, "db"), { recursive: true, mode: 0o700 });
  await chmod(work, 0o700);

  const conn = await sourceDatabase(config, log);
  const client = new pg.Client({ connectionString: conn.url });
  await client.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    for (const s of STABLE_TEXT) await client.query(s);
    // The snapshot is taken by the first statement: everything below reads the same moment.
    const snapshot = (await client.query<{ id: string }>("SELECT pg_export_snapshot() AS id")).rows[0].id;
    const version = (
      await client.query<{ v: string; n: string }>(
        "SELECT current_setting('server_version') AS v, current_setting('server_version_num') AS n",
      )
    ).rows[0];
    const migrations = (
      await client.query<{ hash: string; created_at: string }>(
        "SELECT hash, created_at::text FROM drizzle.__drizzle_migrations ORDER BY created_at, id",
      )
    ).rows.map((r) => ({ hash: r.hash, createdAt: Number(r.created_at) }));
    const readyMedia = (
      await client.query<{ key: string }>("SELECT key FROM public.media_files WHERE status = 'ready' ORDER BY key")
    ).rows.map((r) => r.key);

    // Media right after the snapshot, so that a file deleted after it is most likely still there.
    const manifestMedia: Manifest["media"] = config.s3
      ? {
          storage: "s3",
          note: `Media live in the bucket ${config.s3.bucket}: back it up with the provider's versioning or replication. Only the database is in this backup.`,
          files: {},
          missing: [],
        }
      : { storage: "disk", note: "DATA_DIR/media, copied file by file", files: {}, missing: [] };
    if (!config.s3) {
      const mediaDir = path.join(config.dataDir, "media");
      for (const key of await listFiles(mediaDir)) {
        const copied = await copyHashed(path.join(mediaDir, key), path.join(work, "media", key));
        if (copied) manifestMedia.files[key] = copied;
      }
      manifestMedia.missing = readyMedia.filter((k) => !manifestMedia.files[k]);
      const missing = manifestMedia.missing;
      if (missing.length) {
        log(
          `warning: ${missing.length} media files the database lists are not in ${mediaDir} ` +
            `(deleted while the backup ran, or another DATA_DIR?): ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", …" : ""}`,
        );
      }
    }

    let pgDump: string | null = null;
    let pgDumpNote = "bundled PostgreSQL: Hearth's own dump (the bundled package ships no pg_dump)";
    if (conn.source === "external") {
      const major = pgDumpMajor();
      const serverMajor = Math.floor(Number(version.n) / 10000);
      if (major === null) pgDumpNote = "no pg_dump on this machine: Hearth's own dump only";
      else if (major < serverMajor) {
        pgDumpNote = `pg_dump ${major} cannot dump PostgreSQL ${serverMajor}: Hearth's own dump only`;
      } else {
        log(`Running pg_dump ${major} on the same snapshot`);
        const res = spawnSync(
          "pg_dump",
          [
            "--format=custom",
            "--no-owner",
            "--no-privileges",
            `--snapshot=${snapshot}`,
            "--file",
            path.join(work, "database.pgdump"),
            "--dbname",
            conn.url,
          ],
          { encoding: "utf8" },
        );
        if (res.status !== 0) throw new BackupError(`pg_dump failed: ${res.stderr.trim()}`);
        pgDump = "database.pgdump";
        pgDumpNote = `pg_dump ${major} archive of the same snapshot (restore with pg_restore), beside Hearth's own dump`;
      }
    }

    const tables: Record<string, TableEntry> = {};
    const tableNames = (
      await client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
      )
    ).rows.map((r) => r.name);
    for (const table of tableNames) {
      const columns = (
        await client.query<{ name: string }>(
          `SELECT attname AS name FROM pg_attribute
            WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
            ORDER BY attnum`,
          [`public.${quote(table)}`],
        )
      ).rows.map((r) => r.name);
      const file = `db/${table}.jsonl`;
      const out = await open(path.join(work, file), "w", 0o600);
      const hash = createHash("sha256");
      const digest = new Digest();
      let rows = 0;
      await client.query(
        `DECLARE dump NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS r FROM public.${quote(table)} t`,
      );
      for (;;) {
        const batch = await client.query<{ r: string }>(`FETCH ${BATCH_ROWS} FROM dump`);
        if (batch.rows.length === 0) break;
        let chunk = "";
        for (const { r } of batch.rows) {
          digest.add(r);
          chunk += `${r}\n`;
        }
        rows += batch.rows.length;
        hash.update(chunk);
        await out.write(chunk);
      }
      await client.query("CLOSE dump");
      await out.sync();
      await out.close();
      tables[table] = { file, rows, sha256: hash.digest("hex"), digest: digest.toString(), columns };
    }

    const sequences: Manifest["database"]["sequences"] = {};
    const seqNames = (
      await client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY c.relname`,
      )
    ).rows.map((r) => r.name);
    for (const seq of seqNames) {
      const r = (
        await client.query<{ v: string; c: boolean }>(
          `SELECT last_value::text AS v, is_called AS c FROM public.${quote(seq)}`,
        )
      ).rows[0];
      sequences[seq] = { value: r.v, isCalled: r.c };
    }
    await client.query("COMMIT");

    const secretFile = path.join(config.dataDir, "auth-secret");
    const authSecret = !process.env.AUTH_SECRET && existsSync(secretFile);
    if (authSecret) {
      await copyFile(secretFile, path.join(work, "auth-secret"));
      await chmod(path.join(work, "auth-secret"), 0o600);
    }

    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      createdAt: created.toISOString(),
      hearthVersion: JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version,
      source: conn.source,
      postgresVersion: version.v,
      database: { method: "jsonl-snapshot", migrations, tables, sequences, pgDump, pgDumpNote },
      media: manifestMedia,
      authSecret,
    };
    await writeFile(path.join(work, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n", { mode: 0o600 });
    await rename(work, final);
    const rowCount = Object.values(tables).reduce((n, t) => n + t.rows, 0);
    log(
      `Backup written to ${final}: ${Object.keys(tables).length} tables, ${rowCount} rows, ` +
        (config.s3 ? "media in S3 (not copied)" : `${Object.keys(manifestMedia.files).length} media files`) +
        (pgDump ? ", and a pg_dump archive" : ""),
    );
    return final;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    await rm(work, { recursive: true, force: true });
    throw err;
  } finally {
    await client.end().catch(() => {});
    await conn.close();
  }
}

/** A backup folder, or the newest backup inside a folder of backups. */
async function findBackup(dir: string, log: Log): Promise<string> {
  const abs = path.resolve(dir);
  if (existsSync(path.join(abs, "manifest.json"))) return abs;
  const candidates = existsSync(abs)
    ? (await readdir(abs))
        .filter((n) => /^hearth-backup-.*Z$/.test(n) && existsSync(path.join(abs, n, "manifest.json")))
        .sort()
    : [];
  if (candidates.length === 0) throw new BackupError(`No backup (manifest.json) in ${abs}`, 2);
  const newest = path.join(abs, candidates[candidates.length - 1]);
  log(`Using the newest backup in ${abs}: ${path.basename(newest)}`);
  return newest;
}

async function readManifest(dir: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8"));
  } catch {
    throw new BackupError(`${dir}/manifest.json is not readable JSON`, 2);
  }
  if (manifest.format !== FORMAT || manifest.formatVersion !== FORMAT_VERSION) {
    throw new BackupError(`${dir} is not a Hearth backup this version can read`, 2);
  }
  return manifest;
}

/** Checks every file of the backup against its manifest before anything is changed. */
async function verifyFiles(dir: string, manifest: Manifest) {
  for (const [table, t] of Object.entries(manifest.database.tables)) {
    if ((await sha256File(path.join(dir, t.file))) !== t.sha256)
      throw new BackupError(`The dump of ${table} is damaged (checksum)`);
  }
  for (const [key, f] of Object.entries(manifest.media.files)) {
    if ((await sha256File(path.join(dir, "media", key))) !== f.sha256)
      throw new BackupError(`Media file ${key} is damaged (checksum)`);
  }
}

/** The code's migrations up to the backup's, in a folder of their own; refuses a backup of other migrations. */
async function migrationsAsOfBackup(manifest: Manifest): Promise<string> {
  const code = readMigrationFiles({ migrationsFolder: MIGRATIONS });
  const made = manifest.database.migrations;
  const mismatch = made.findIndex(
    (m, i) => !code[i] || code[i].hash !== m.hash || code[i].folderMillis !== m.createdAt,
  );
  if (made.length > code.length || mismatch !== -1) {
    throw new BackupError(
      "This backup was made by another version of Hearth (its migrations are not this version's): restore it with the version that made it, then upgrade",
      2,
    );
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "hearth-restore-migrations-"));
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS, "meta/_journal.json"), "utf8"));
  journal.entries = journal.entries.slice(0, made.length);
  await mkdir(path.join(dir, "meta"));
  await writeFile(path.join(dir, "meta/_journal.json"), JSON.stringify(journal));
  for (const e of journal.entries as { tag: string }[])
    await copyFile(path.join(MIGRATIONS, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

async function isEmptyDatabase(client: pg.Client): Promise<boolean> {
  const r = await client.query<{ tables: number; migrated: boolean }>(
    `SELECT (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')) AS tables,
            to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS migrated`,
  );
  return r.rows[0].tables === 0 && !r.rows[0].migrated;
}

/** Rows of one restored table, as the backup counted and fingerprinted them. */
async function tableFingerprint(client: pg.Client, table: string) {
  const digest = new Digest();
  let rows = 0;
  await client.query(`DECLARE v NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS r FROM public.${quote(table)} t`);
  for (;;) {
    const batch = await client.query<{ r: string }>(`FETCH ${BATCH_ROWS} FROM v`);
    if (batch.rows.length === 0) break;
    for (const { r } of batch.rows) digest.add(r);
    rows += batch.rows.length;
  }
  await client.query("CLOSE v");
  return { rows, digest: digest.toString() };
}

/**
 * The lines of a rows file, split on "\n" alone. Not node:readline: since Node 22 it also ends a
 * line at U+2028 and U+2029, which PostgreSQL's JSON leaves unescaped inside strings, so a post
 * holding one would be cut in two.
 */
export async function* jsonLines(file: string): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of createReadStream(file, "utf8")) {
    const parts = (rest + (chunk as string)).split("\n");
    rest = parts.pop() ?? "";
    yield* parts;
  }
  if (rest) yield rest;
}

async function loadTable(client: pg.Client, dir: string, table: string, t: TableEntry) {
  const cols = t.columns.map(quote).join(", ");
  const insert = `INSERT INTO public.${quote(table)} (${cols}) OVERRIDING SYSTEM VALUE
                  SELECT ${cols} FROM json_populate_recordset(NULL::public.${quote(table)}, $1::json)`;
  const lines = jsonLines(path.join(dir, t.file));
  let batch: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length) await client.query(insert, [`[${batch.join(",")}]`]);
    batch = [];
    bytes = 0;
  };
  for await (const line of lines) {
    if (!line) continue;
    batch.push(line);
    bytes += line.length;
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) await flush();
  }
  await flush();
}

export async function restore(dir: string, opts: { force?: boolean } = {}, log: Log = console.log): Promise<void> {
  const config = settings();
  const backupDir = await findBackup(dir, log);
  const manifest = await readManifest(backupDir);
  await verifyFiles(backupDir, manifest);
  const migrationsDir = await migrationsAsOfBackup(manifest);

  const mediaDir = path.join(config.dataDir, "media");
  const mediaFiles = Object.keys(manifest.media.files);
  if (!config.s3 && mediaFiles.length && (await listFiles(mediaDir)).length && !opts.force) {
    throw new BackupError(`${mediaDir} is not empty: restore into a fresh DATA_DIR, or add --force to replace it`, 2);
  }
  const secretTarget = path.join(config.dataDir, "auth-secret");
  if (manifest.authSecret && !process.env.AUTH_SECRET && existsSync(secretTarget) && !opts.force) {
    const backupSecret = (await readFile(path.join(backupDir, "auth-secret"), "utf8")).trim();
    if ((await readFile(secretTarget, "utf8")).trim() !== backupSecret) {
      throw new BackupError(
        `${secretTarget} holds another secret: restore into a fresh DATA_DIR, or add --force to replace it`,
        2,
      );
    }
  }

  let stopDb = async () => {};
  let url = config.databaseUrl;
  if (!url) {
    const release = lockDataDir(config.dataDir);
    try {
      const pgdb = await startEmbeddedPostgres(config.dataDir, { info: log, warn: log });
      url = pgdb.url;
      stopDb = async () => {
        await pgdb.stop();
        release();
      };
    } catch (err) {
      release();
      throw err;
    }
  }
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    if (!(await isEmptyDatabase(client))) {
      if (!opts.force) {
        throw new BackupError(
          `The target database is not empty: restore into a fresh DATA_DIR or an empty database, or add --force to replace everything in it`,
          2,
        );
      }
      log("--force: dropping everything in the target database");
      await client.query("DROP SCHEMA IF EXISTS drizzle CASCADE");
      await client.query("DROP SCHEMA public CASCADE");
      await client.query("CREATE SCHEMA public");
    }
    log(`Applying the backup's ${manifest.database.migrations.length} migrations`);
    await migrate(drizzle({ client }), { migrationsFolder: migrationsDir });

    const tables = Object.entries(manifest.database.tables);
    await client.query("BEGIN");
    for (const s of STABLE_TEXT) await client.query(s);
    // Rows go in as they were: no triggers (counters, notifications) and no foreign-key checks
    // while loading; the snapshot was consistent, so the result is.
    try {
      await client.query("SET LOCAL session_replication_role = replica");
    } catch (err) {
      throw new BackupError(
        `The database role may not set session_replication_role (${(err as Error).message}): restore as a superuser, or GRANT SET ON PARAMETER session_replication_role to it`,
      );
    }
    const existing = (
      await client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind = 'r'`,
      )
    ).rows.map((r) => r.name);
    const unknown = tables.map(([name]) => name).filter((n) => !existing.includes(n));
    if (unknown.length)
      throw new BackupError(`Tables of the backup missing after its migrations: ${unknown.join(", ")}`);
    // Rows a migration inserted are in the backup too.
    if (existing.length) await client.query(`TRUNCATE ${existing.map((n) => `public.${quote(n)}`).join(", ")}`);
    for (const [name, t] of tables) {
      await loadTable(client, backupDir, name, t);
      log(`  ${name}: ${t.rows} rows`);
    }
    for (const [seq, s] of Object.entries(manifest.database.sequences)) {
      await client.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [`public.${quote(seq)}`, s.value, s.isCalled]);
    }
    await client.query("COMMIT");

    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    for (const s of STABLE_TEXT) await client.query(s);
    for (const [name, t] of tables) {
      const got = await tableFingerprint(client, name);
      if (got.rows !== t.rows || got.digest !== t.digest) {
        throw new BackupError(`Restored ${name} differs from the backup (${got.rows} rows, ${t.rows} expected)`);
      }
    }
    await client.query("COMMIT");
    log(`Database restored and checked: ${tables.length} tables`);
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    await client.end().catch(() => {});
    await stopDb();
    await rm(migrationsDir, { recursive: true, force: true });
  }

  if (mediaFiles.length) {
    if (!config.s3 && opts.force) await rm(mediaDir, { recursive: true, force: true });
    const storage = await createStorage(config);
    for (const key of mediaFiles) {
      await storage.put(key, createReadStream(path.join(backupDir, "media", key)), "application/octet-stream");
      const object = await storage.get(key);
      const hash = createHash("sha256");
      if (object) await pipeline(object.stream, hash);
      if (!object || hash.digest("hex") !== manifest.media.files[key].sha256) {
        throw new BackupError(`Media file ${key} did not read back as it was backed up`);
      }
    }
    log(
      `Media restored and checked: ${mediaFiles.length} files (${config.s3 ? `bucket ${config.s3.bucket}` : mediaDir})`,
    );
  }
  if (manifest.authSecret && !process.env.AUTH_SECRET) {
    await mkdir(config.dataDir, { recursive: true });
    await copyFile(path.join(backupDir, "auth-secret"), secretTarget);
    await chmod(secretTarget, 0o600);
  }
  log(`Restored ${path.basename(backupDir)}. Start Hearth as usual: later migrations, if any, are applied at start.`);
}

const USAGE = `Usage:
  npm run backup -- <dir>                    write <dir>/hearth-backup-<time>/
  npm run restore -- <backup dir> [--force]  restore it into DATA_DIR (or DATABASE_URL)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const force = rest.includes("--force");
  const args = rest.filter((a) => a !== "--force");
  if (
    (command !== "backup" && command !== "restore") ||
    args.length !== 1 ||
    rest.some((a) => a.startsWith("--") && a !== "--force")
  ) {
    console.error(USAGE);
    return 64;
  }
  try {
    if (command === "backup") await backup(args[0]);
    else await restore(args[0], { force });
    return 0;
  } catch (err) {
    if (err instanceof BackupError) {
      console.error(`[hearth] ${err.message}`);
      return err.exitCode;
    }
    console.error(err);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  // Exit explicitly: the bundled PostgreSQL package's exit hook would otherwise end the process with 0.
  process.exit(await main(process.argv.slice(2)));
}
