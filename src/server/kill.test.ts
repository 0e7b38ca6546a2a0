import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestApp, ORIGIN, signedInUser, type TestApp } from "./test/harness";
import { counterDrift } from "./test/counters";
import { reportFaultMeasurement } from "./test/fault-report";
import { startServerOnTestDatabase, type ServerProcess } from "./test/server-process";

/**
 * The server process is killed with SIGKILL at random moments while clients write through it
 * (posts, comments, likes, joins); it is started again on the same PostgreSQL, over several
 * rounds. Afterwards every write the API acknowledged must be there and no counter may drift.
 */
const ROUNDS = Number(process.env.KILL_ROUNDS ?? 4);
const WRITERS = 6;

let t: TestApp;
let dataDir: string;
let server: ServerProcess | undefined;
beforeAll(async () => {
  t = await createTestApp();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "hearth-kill-"));
});
afterAll(async () => {
  server?.child.kill("SIGKILL");
  await server?.exited;
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** How long each start took, from spawning the process to its first answer (ms). */
const startTimes: number[] = [];

async function start(): Promise<string> {
  const t0 = performance.now();
  const started = await startServerOnTestDatabase(t, dataDir, { LOG_LEVEL: "fatal" });
  startTimes.push(performance.now() - t0);
  server = started.server;
  return started.base;
}

/** Per like (post|user): the last acknowledged state, and whether a later toggle went unanswered. */
type Acked = { posts: string[]; comments: string[]; liked: Map<string, boolean>; uncertain: Set<string> };

describe("SIGKILL during writes", () => {
  it(
    "loses no acknowledged write and leaves every counter equal to its rows",
    async () => {
      const http = api(t.app);
      const owner = await signedInUser(t);
      const community = (await http.post("/api/communities", { name: "Kill Test" }, { cookie: owner.cookie })).body;
      const writers: Awaited<ReturnType<typeof signedInUser>>[] = [];
      for (let i = 0; i < WRITERS; i++) writers.push(await signedInUser(t));
      const seedPost = (
        await http.post(`/api/communities/${community.id}/posts`, { content: "Seed" }, { cookie: owner.cookie })
      ).body.id as string;
      const acked: Acked = { posts: [seedPost], comments: [], liked: new Map(), uncertain: new Set() };
      let requests = 0;
      let killedDuring = 0;

      for (let round = 0; round < ROUNDS; round++) {
        const base = await start();
        let stop = false;
        const send = async (pathname: string, cookie: string, body: unknown) => {
          requests++;
          try {
            const res = await fetch(`${base}${pathname}`, {
              method: "POST",
              headers: { "content-type": "application/json", origin: ORIGIN, cookie },
              body: JSON.stringify(body),
            });
            return res.status < 300 ? ((await res.json()) as Record<string, unknown>) : null;
          } catch {
            killedDuring++;
            stop = true;
            return null;
          }
        };
        const loop = async (w: (typeof writers)[number], k: number) => {
          await send(`/api/communities/${community.id}/join`, w.cookie, {});
          for (let n = 0; !stop; n++) {
            const post = await send(`/api/communities/${community.id}/posts`, w.cookie, {
              content: `r${round} w${k} #${n}`,
            });
            if (post) acked.posts.push(post.id as string);
            const target = acked.posts[Math.floor(Math.random() * acked.posts.length)];
            const comment = await send(`/api/posts/${target}/comments`, w.cookie, { content: `c${n}` });
            if (comment) acked.comments.push(comment.id as string);
            const key = `${target}|${w.id}`;
            acked.uncertain.add(key);
            const liked = await send(`/api/posts/${target}/like`, w.cookie, {});
            if (liked) {
              acked.liked.set(key, liked.liked as boolean);
              acked.uncertain.delete(key);
            }
          }
        };
        const running = writers.map((w, k) => loop(w, k));
        await new Promise((r) => setTimeout(r, 300 + Math.random() * 1200));
        server!.child.kill("SIGKILL");
        await server!.exited;
        stop = true;
        await Promise.all(running);
      }

      const q = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;
      const posts = new Set((await q(`SELECT id FROM posts WHERE community_id = $1`, [community.id])).map((r) => r.id));
      for (const id of acked.posts) expect(posts.has(id), `post ${id}`).toBe(true);
      const comments = new Set((await q(`SELECT id FROM comments`)).map((r) => r.id));
      for (const id of acked.comments) expect(comments.has(id), `comment ${id}`).toBe(true);
      // Each like is as its last acknowledged toggle left it, unless a later toggle went unanswered.
      const likes = new Set((await q(`SELECT post_id || '|' || user_id AS k FROM post_likes`)).map((r) => r.k));
      let checked = 0;
      for (const [key, state] of acked.liked) {
        if (acked.uncertain.has(key)) continue;
        expect(likes.has(key), key).toBe(state);
        checked++;
      }
      expect(checked).toBeGreaterThan(0);

      const drift = await counterDrift(t.database.pool);
      reportFaultMeasurement("kill", {
        rounds: ROUNDS,
        writers: WRITERS,
        requests,
        cutOff: killedDuring,
        posts: acked.posts.length,
        comments: acked.comments.length,
        likesChecked: checked,
        likesUncertain: acked.uncertain.size,
        drift,
        startMs: startTimes,
      });
      expect(drift).toEqual({});
      expect(acked.posts.length).toBeGreaterThan(ROUNDS * 2);
      expect(killedDuring).toBeGreaterThan(0);
      expect(requests).toBeGreaterThan(ROUNDS * 10);
    },
    ROUNDS * 30_000 + 30_000,
  );
});
