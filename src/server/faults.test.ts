import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type HearthApp } from "./app";
import { loadConfig } from "./config";
import { connectDatabase, type Database } from "./db/client";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./db/embedded";
import { migrateDatabase } from "./db/migrate";
import { createConfirmedUser } from "./seed/seed";
import { reportFaultMeasurement } from "./test/fault-report";
import { ORIGIN, sessionCookie } from "./test/harness";

/** Outages in a row (OUTAGE_ROUNDS; one in CI, more under `npm run bench -- faults`). */
const OUTAGES = Number(process.env.OUTAGE_ROUNDS ?? 1);

/**
 * A PostgreSQL of its own (the shared test database must not stop), used like an external one:
 * stopped mid-traffic and started again on the same port.
 */
const silent = { info: () => {}, warn: () => {} };
let dir: string;
let pgdb: EmbeddedDatabase;
let port: number;
let database: Database;
let app: HearthApp;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "hearth-faults-"));
  pgdb = await startEmbeddedPostgres(dir, silent);
  port = Number(new URL(pgdb.url).port);
  database = connectDatabase(pgdb.url, { max: 5, onError: () => {} });
  await migrateDatabase(database.pool);
  const config = loadConfig(
    { NODE_ENV: "test", LOG_LEVEL: "silent" },
    {
      dataDir: dir,
      publicUrl: ORIGIN,
      authSecret: randomBytes(32).toString("hex"),
      rateLimits: false,
      serveWeb: false,
      seedDemo: false,
    },
  );
  app = await buildApp({ config, database, logger: false, startWorker: true });
  base = await app.listen({ port: 0, host: "127.0.0.1" });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
  await pgdb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Answer = { status: number; ms: number; body: string };
async function timed(pathname: string, init: RequestInit = {}): Promise<Answer> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}${pathname}`, { ...init, signal: AbortSignal.timeout(10_000) });
    return { status: res.status, ms: performance.now() - t0, body: await res.text() };
  } catch (err) {
    return { status: 0, ms: performance.now() - t0, body: String(err) };
  }
}

describe("a database outage", () => {
  it(
    "is answered quickly with 503 while PostgreSQL is down, and the server recovers by itself within 5 s, each time",
    async () => {
      const email = `outage${Date.now()}@example.test`;
      await createConfirmedUser(database.db, {
        email,
        name: "Outage",
        username: `outage_${Date.now()}`,
        password: "pw-123456",
      });
      const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN },
        body: JSON.stringify({ email, password: "pw-123456" }),
      });
      const cookie = sessionCookie(Object.fromEntries(signIn.headers));
      const write = (name: string) =>
        timed("/api/communities", {
          method: "POST",
          headers: { "content-type": "application/json", origin: ORIGIN, cookie },
          body: JSON.stringify({ name }),
        });
      const reads = ["/api/health", "/api/me", "/api/communities?limit=5"];
      const round = async (tag: string) => [
        ...(await Promise.all(reads.map((p) => timed(p, { headers: { cookie } })))),
        await write(`${tag} ${Math.random().toString(36).slice(2, 8)}`),
      ];

      expect((await round("before")).map((a) => a.status)).toEqual([200, 200, 200, 201]);

      for (let outage = 1; outage <= OUTAGES; outage++) {
        await pgdb.stop();
        const during: Answer[] = [];
        for (let i = 0; i < 5; i++) during.push(...(await round("during")));
        // No hang, no crash: every answer is a quick 503 (or a read served from memory).
        for (const a of during) {
          expect([200, 503], a.body).toContain(a.status);
          expect(a.ms, a.body).toBeLessThan(1000);
        }
        expect(during.filter((a) => a.status === 503).length).toBeGreaterThanOrEqual(10);
        const refusal = during.find((a) => a.status === 503 && a.body.includes('"error"'));
        expect(JSON.parse(refusal!.body)).toMatchObject({ error: { code: "UNAVAILABLE" } });

        pgdb = await startEmbeddedPostgres(dir, silent, { port });
        const back = performance.now();
        let recovered = Infinity;
        while (performance.now() - back < 15_000) {
          const answers = await round("after");
          if (answers.every((a) => a.status < 300)) {
            recovered = performance.now() - back;
            break;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
        const ms = during.map((a) => a.ms).sort((a, b) => a - b);
        reportFaultMeasurement("outage", {
          outage,
          answers: during.length,
          unavailable: during.filter((a) => a.status === 503).length,
          medianMs: ms[Math.floor(ms.length / 2)],
          maxMs: ms.at(-1),
          recoveredMs: recovered,
        });
        expect(recovered).toBeLessThan(5000);
      }
    },
    60_000 + OUTAGES * 30_000,
  );
});
