import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { buildApp, type HearthApp } from "#server/app";
import { loadConfig } from "#server/config";
import { connectDatabase, type Database } from "#server/db/client";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "#server/db/embedded";
import { migrateDatabase } from "#server/db/migrate";
import { api, createTestApp, ORIGIN, type TestApp } from "#server/test/harness";
import { startServerOnTestDatabase } from "#server/test/server-process";
import { beginDraining } from "./readiness";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("GET /api/ready", () => {
  it("is ready when the database answers, every migration is applied, storage works and no shutdown began", async () => {
    t = await createTestApp();
    const res = await api(t.app).get("/api/ready");
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body).toEqual({
      status: "ready",
      checks: { database: "ok", migrations: "ok", storage: "ok", shutdown: "ok" },
    });
  });

  it("is not ready while the newest migration is missing from the database", async () => {
    t = await createTestApp();
    await t.database.pool.query(
      `DELETE FROM drizzle.__drizzle_migrations
        WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)`,
    );
    const res = await api(t.app).get("/api/ready");
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: "not_ready", checks: { database: "ok", migrations: "pending" } });
    // Liveness is not about migrations.
    expect((await api(t.app).get("/api/health")).status).toBe(200);
  });

  it("is not ready when the media directory cannot be written", async () => {
    t = await createTestApp();
    writeFileSync(path.join(t.config.dataDir, "media"), "a file where the media directory should be");
    const res = await api(t.app).get("/api/ready");
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ checks: { database: "ok", storage: "unavailable" } });
  });

  it("turns 503 once shutdown begins, while other requests are still served", async () => {
    t = await createTestApp();
    expect((await api(t.app).get("/api/ready")).status).toBe(200);
    beginDraining(t.app.ctx);
    const res = await api(t.app).get("/api/ready");
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      status: "not_ready",
      checks: { database: "ok", migrations: "ok", storage: "ok", shutdown: "draining" },
    });
    expect((await api(t.app).get("/api/health")).status).toBe(200);
  });
});

describe("readiness of a real process on SIGTERM", () => {
  it(
    "answers 503 during SHUTDOWN_DRAIN_SECONDS while still serving, then exits cleanly",
    { timeout: 60_000 },
    async () => {
      t = await createTestApp();
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "hearth-ready-"));
      try {
        const { server, base } = await startServerOnTestDatabase(t, dataDir, { SHUTDOWN_DRAIN_SECONDS: "2" });
        expect((await fetch(`${base}/api/ready`)).status).toBe(200);
        const signalled = performance.now();
        server.child.kill("SIGTERM");
        let draining: Response | undefined;
        while (performance.now() - signalled < 1_500) {
          const res = await fetch(`${base}/api/ready`);
          if (res.status === 503) {
            draining = res;
            break;
          }
        }
        expect(draining, server.output()).toBeDefined();
        expect(await draining!.json()).toMatchObject({ status: "not_ready", checks: { shutdown: "draining" } });
        // Still serving during the drain: the balancer moves traffic away, nothing is cut off.
        const health = await fetch(`${base}/api/health`);
        expect(health.status).toBe(200);
        expect(await server.exited).toBe(0);
        expect(performance.now() - signalled).toBeGreaterThanOrEqual(2_000);
        await expect(fetch(`${base}/api/ready`)).rejects.toThrow();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});

/** A PostgreSQL of this file's own, stopped and started again (the shared test database must stay up). */
describe("readiness during a database outage", () => {
  const silent = { info: () => {}, warn: () => {} };
  let dir: string | undefined;
  let pgdb: EmbeddedDatabase | undefined;
  let database: Database | undefined;
  let app: HearthApp | undefined;
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await pgdb?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    "answers 503 within about a second while PostgreSQL is stopped, and ready again once it is back",
    { timeout: 90_000 },
    async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), "hearth-ready-pg-"));
      pgdb = await startEmbeddedPostgres(dir, silent);
      const port = Number(new URL(pgdb.url).port);
      database = connectDatabase(pgdb.url, { max: 3, onError: () => {} });
      await migrateDatabase(database.pool);
      const config = loadConfig(
        { NODE_ENV: "test", LOG_LEVEL: "silent" },
        {
          dataDir: dir,
          publicUrl: ORIGIN,
          authSecret: randomBytes(32).toString("hex"),
          serveWeb: false,
          seedDemo: false,
        },
      );
      app = await buildApp({ config, database, logger: false, startWorker: false });
      const base = await app.listen({ port: 0, host: "127.0.0.1" });
      expect((await fetch(`${base}/api/ready`)).status).toBe(200);

      await pgdb.stop();
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const res = await fetch(`${base}/api/ready`, { signal: AbortSignal.timeout(5_000) });
        const ms = performance.now() - t0;
        expect(res.status).toBe(503);
        const body = await res.json();
        expect(body.status).toBe("not_ready");
        expect(["unreachable", "timeout"]).toContain(body.checks.database);
        expect(ms).toBeLessThan(1_500);
      }

      pgdb = await startEmbeddedPostgres(dir, silent, { port });
      const back = performance.now();
      let status = 0;
      while (performance.now() - back < 10_000) {
        status = (await fetch(`${base}/api/ready`)).status;
        if (status === 200) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      expect(performance.now() - back).toBeLessThan(5_000);
    },
  );
});
