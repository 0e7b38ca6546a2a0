import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { buildApp, type HearthApp } from "#server/app";
import { loadConfig, type Config } from "#server/config";
import { connectDatabase, type Database } from "#server/db/client";
import { createConfirmedUser } from "#server/seed/seed";

export const ORIGIN = "http://localhost:3000";

export type TestApp = {
  app: HearthApp;
  database: Database;
  config: Config;
  close: () => Promise<void>;
};

/** A second app on the test app's database: a second process behind the load balancer. Close it first. */
export async function secondProcess(t: TestApp): Promise<HearthApp> {
  const other = await buildApp({ config: t.config, database: t.database, logger: false, startWorker: false });
  await other.ready();
  return other;
}

/** A fresh database cloned from the migrated template, and the real HTTP app on it. */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const templateUrl = new URL(inject("templateUrl"));
  const template = templateUrl.pathname.slice(1);
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({
    connectionString: Object.assign(new URL(templateUrl), { pathname: "/postgres" }).toString(),
  });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  const dbUrl = Object.assign(new URL(templateUrl), { pathname: `/${name}` }).toString();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "hearth-test-data-"));
  const config = loadConfig(
    { NODE_ENV: "test", LOG_LEVEL: "silent" },
    {
      dataDir,
      publicUrl: ORIGIN,
      authSecret: randomBytes(32).toString("hex"),
      rateLimits: false,
      serveWeb: false,
      seedDemo: false,
      ...overrides,
    },
  );
  const database = connectDatabase(dbUrl, { max: 5 });
  const app = await buildApp({ config, database, logger: false, startWorker: false });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
      const a = new pg.Client({
        connectionString: Object.assign(new URL(templateUrl), { pathname: "/postgres" }).toString(),
      });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

type InjectOpts = { cookie?: string; headers?: Record<string, string>; query?: Record<string, string> };

/** JSON requests the way the web client sends them (same origin). */
export function api(app: HearthApp) {
  const send = async (
    method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
    url: string,
    body?: unknown,
    opts: InjectOpts = {},
  ) => {
    const res = await app.inject({
      method,
      url,
      query: opts.query,
      headers: {
        origin: ORIGIN,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
        ...opts.headers,
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    let json: unknown;
    try {
      json = res.body ? JSON.parse(res.body) : null;
    } catch {
      json = null;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.statusCode, headers: res.headers, body: json as any, raw: res };
  };
  return {
    get: (url: string, opts?: InjectOpts) => send("GET", url, undefined, opts),
    post: (url: string, body: unknown = {}, opts?: InjectOpts) => send("POST", url, body, opts),
    patch: (url: string, body: unknown, opts?: InjectOpts) => send("PATCH", url, body, opts),
    put: (url: string, body: unknown, opts?: InjectOpts) => send("PUT", url, body, opts),
    delete: (url: string, opts?: InjectOpts) => send("DELETE", url, undefined, opts),
  };
}

/** The session cookie from a response's set-cookie headers, as a Cookie header value. */
export function sessionCookie(headers: Record<string, unknown>): string {
  const raw = headers["set-cookie"];
  const list = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  const found = list.map((c) => String(c).split(";")[0]).find((c) => c.includes("session_token=") && !c.endsWith("="));
  if (!found) throw new Error(`no session cookie in ${JSON.stringify(list)}`);
  return found;
}

let counter = 0;
/** A confirmed user made directly in the database, signed in through the API. */
export async function signedInUser(t: TestApp, opts: { password?: string; username?: string; name?: string } = {}) {
  const n = `${Date.now().toString(36)}${counter++}`;
  const email = `user${n}@example.test`;
  const password = opts.password ?? "correct-horse-1";
  const username = opts.username ?? `user_${n}`;
  const id = await createConfirmedUser(t.database.db, { email, name: opts.name ?? `User ${n}`, username, password });
  const res = await api(t.app).post("/api/auth/sign-in/email", { email, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id, email, password, username, cookie: sessionCookie(res.headers) };
}

/** Messages in the local outbox for one address, newest first. */
export async function mailTo(t: TestApp, email: string) {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/dev/mailbox?to=${encodeURIComponent(email)}`,
    remoteAddress: "127.0.0.1",
  });
  return (JSON.parse(res.body) as { messages: { subject: string; text: string; to: string }[] }).messages;
}

export function firstLink(text: string): string {
  const m = text.match(/https?:\/\/[^\s]+/);
  if (!m) throw new Error(`no link in ${text}`);
  return m[0];
}

/** A multipart/form-data body with text fields first, then one file in the field `file`. */
export function multipart(filename: string, contentType: string, data: Buffer, fields: Record<string, string> = {}) {
  const boundary = "----hearthtest" + Math.random().toString(16).slice(2);
  const fieldParts = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join("");
  const head = Buffer.from(
    `${fieldParts}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads one file as multipart to a URL, the way the web client does. */
export async function upload(
  t: TestApp,
  url: string,
  cookie: string | undefined,
  file: { name: string; type: string; data: Buffer },
  fields: Record<string, string> = {},
) {
  const body = multipart(file.name, file.type, file.data, fields);
  const res = await t.app.inject({
    method: "POST",
    url,
    headers: { origin: ORIGIN, "content-type": body.contentType, ...(cookie ? { cookie } : {}) },
    payload: body.payload,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.statusCode, body: JSON.parse(res.body || "null") as any };
}

/** How many statements the app sends to PostgreSQL (through its pool) while `run` runs. */
export async function countStatements(t: TestApp, run: () => Promise<unknown>): Promise<number> {
  const pool = t.database.pool;
  const query = pool.query;
  let n = 0;
  pool.query = ((...args: Parameters<typeof query>) => (n++, query.apply(pool, args))) as typeof query;
  try {
    await run();
  } finally {
    pool.query = query;
  }
  return n;
}

/** Markers sent on hearth_feed, waiting to be heard, by the app that waits for them. */
const markersOf = new WeakMap<HearthApp, Map<string, () => void>>();

/**
 * Resolves once `app`'s listener has heard every announcement committed before the call, and its
 * caches have dropped what they drop: a marker sent now on hearth_feed arrives after them
 * (PostgreSQL delivers notifications in commit order on the one connection) and the handlers run in
 * order. A marker names no community, so it drops nothing.
 */
export async function heardAll(t: TestApp, app: HearthApp = t.app): Promise<void> {
  let markers = markersOf.get(app);
  if (!markers) {
    const mine = (markers = new Map());
    markersOf.set(app, mine);
    app.ctx.listener.on("hearth_feed", (payload) => mine.get(payload)?.());
  }
  const marker = `marker-${randomBytes(8).toString("hex")}`;
  const heard = new Promise<void>((resolve) => markers.set(marker, resolve));
  await t.database.pool.query("SELECT pg_notify('hearth_feed', $1)", [marker]);
  await heard;
  markers.delete(marker);
}

/**
 * Reads again until `done` holds of what was read or `ms` pass (for what another process, or a
 * database notification, makes true a moment later); answers the last read.
 */
export async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 25));
    value = await read();
  }
  return value;
}

/**
 * Rate-limit counters are fixed windows of the wall clock (rate_limits.window_start): a test that
 * straddles a window's end would see its count restart. Waits for the next window when the current
 * one ends within `needMs`: the caller's timeout must allow that wait (up to `needMs`) on top of its
 * own work, and its work must take less than `needMs`.
 */
export async function clearOfWindowEnd(windowSeconds: number, needMs = 8_000): Promise<void> {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 100));
}
