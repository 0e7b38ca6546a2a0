import autocannon from "autocannon";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mixedLoad, mixSummary } from "../../bench/lib/mix";
import { insertSessions } from "../../bench/lib/sessions";
import { counterDrift } from "./test/counters";
import { api, createTestApp, ORIGIN, signedInUser, type TestApp } from "./test/harness";
import { startServerOnTestDatabase, type ServerProcess } from "./test/server-process";

/**
 * The short CI version of the mixed load (`npm run bench -- mixed` runs 60 s on a large data set):
 * 100 connections for LOAD_SECONDS against a real server process (production config, rate limits
 * off as in the benchmarks) on the test database, mixing anonymous and signed-in reads with posts,
 * comments, likes and votes by many members (bench/lib/mix.ts). Any 5xx, other unexpected status,
 * connection error or timeout fails it; afterwards every acknowledged post and comment must be
 * stored and no counter may have drifted from its rows.
 */
const SECONDS = Number(process.env.LOAD_SECONDS ?? 10);
const CONNECTIONS = 100;
const READERS = 40;
const WRITERS = 40;
const POLLS = 40;

let t: TestApp;
let dataDir: string;
let server: ServerProcess | undefined;
beforeAll(async () => {
  t = await createTestApp();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "hearth-load-"));
});
afterAll(async () => {
  server?.child.kill("SIGKILL");
  await server?.exited;
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `n` users with profiles (and, with `community`, memberships), made with SQL, and a session cookie each. */
async function users(n: number, tag: string, community?: string): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `${tag}${i}x${randomBytes(4).toString("hex")}`);
  const pool = t.database.pool;
  await pool.query(
    `INSERT INTO "user" (id, name, email, email_verified)
     SELECT id, 'Load ' || id, id || '@example.test', true FROM unnest($1::text[]) id`,
    [ids],
  );
  await pool.query(
    `INSERT INTO user_profiles (user_id, username, full_name)
     SELECT id, id, 'Load ' || id FROM unnest($1::text[]) id`,
    [ids],
  );
  if (community) {
    await pool.query(
      `INSERT INTO community_members (community_id, user_id, role) SELECT $1, id, 'member' FROM unnest($2::text[]) id`,
      [community, ids],
    );
  }
  return insertSessions(pool, t.config.authSecret, ids);
}

describe("a mixed load at 100 connections", () => {
  it(
    "answers every request without a 5xx, an error or a timeout, keeps every acknowledged write and every counter",
    async () => {
      const http = api(t.app);
      const owner = await signedInUser(t);
      const community = (await http.post("/api/communities", { name: "Load Test" }, { cookie: owner.cookie })).body;
      const posts: string[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await http.post(
          `/api/communities/${community.id}/posts`,
          { content: `Post ${i}: notes from this week's bake.` },
          { cookie: owner.cookie },
        );
        expect(res.status).toBe(201);
        posts.push(res.body.id);
      }
      const polls: string[] = [];
      for (let i = 0; i < POLLS; i++) {
        const res = await http.post(
          `/api/communities/${community.id}/posts`,
          { type: "poll", content: `Poll ${i}`, poll: { options: ["Yes", "No"], duration_hours: 0 } },
          { cookie: owner.cookie },
        );
        expect(res.status).toBe(201);
        polls.push(res.body.id);
      }
      posts.reverse();
      // Readers are members; writers are not yet: each joins by taking part, under load.
      const readers = await users(READERS, "r", community.id);
      const writers = await users(WRITERS, "w");

      const started = await startServerOnTestDatabase(t, dataDir, { RATE_LIMITS: "false", LOG_LEVEL: "error" });
      server = started.server;
      const load = mixedLoad({ community: community.id, posts, polls, readers, writers, origin: ORIGIN });
      const result = await autocannon({
        url: `${started.base}/api/communities`,
        connections: CONNECTIONS,
        duration: SECONDS,
        timeout: 10,
        setupClient: load.setupClient,
      });
      const summary = mixSummary(load.stats);
      const report = JSON.stringify({
        statuses: result.statusCodeStats,
        errors: result.errors,
        timeouts: result.timeouts,
        failures: load.stats.failureSamples,
        byKind: summary.map((s) => [s.kind, s.count, s.statuses, s.p99]),
        // The server's error lines (level 50 and up), which name what failed.
        serverErrors: server
          .output()
          .split("\n")
          .filter((line) => /"level":(50|60)/.test(line))
          .map((line) => line.slice(0, 400))
          .slice(0, 5),
      });
      expect(result.requests.total, report).toBeGreaterThan(CONNECTIONS * SECONDS);
      for (const code of Object.keys(result.statusCodeStats ?? {})) expect(Number(code), report).toBeLessThan(500);
      expect(result.non2xx, report).toBe(0);
      expect(load.stats.failures, report).toBe(0);
      expect(result.errors, report).toBe(0);
      expect(result.timeouts, report).toBe(0);
      // Every kind of request was made, writes included.
      for (const s of summary) expect(s.count, `${s.kind}: ${report}`).toBeGreaterThan(0);
      expect(server.output(), report).not.toMatch(/"level":(50|60)/);

      server.child.kill("SIGTERM");
      await server.exited;
      server = undefined;
      const q = async (text: string, params: unknown[]) => (await t.database.pool.query(text, params)).rows[0];
      const { createdPosts, createdComments } = load.stats;
      expect(
        await q(
          `SELECT (SELECT count(*) FROM posts WHERE id = ANY($1::uuid[]))::int AS posts,
                  (SELECT count(*) FROM comments WHERE id = ANY($2::uuid[]))::int AS comments`,
          [createdPosts, createdComments],
        ),
      ).toEqual({ posts: createdPosts.length, comments: createdComments.length });
      // Writers joined by taking part (member_count is checked against the rows with the other counters).
      const joined = await q(
        `SELECT count(*)::int AS n FROM community_members WHERE community_id = $1 AND user_id LIKE 'w%'`,
        [community.id],
      );
      expect(joined.n).toBeGreaterThan(0);
      expect(await counterDrift(t.database.pool)).toEqual({});
    },
    SECONDS * 1000 + 40_000,
  );
});
