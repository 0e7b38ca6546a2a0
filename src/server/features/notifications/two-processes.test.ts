import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestApp, readUntil, signedInUser, type TestApp } from "#server/test/harness";
import { startServerOnTestDatabase, type ServerProcess } from "#server/test/server-process";
import { connectSse, type SseClient } from "#server/test/sse";

/**
 * Process A is the test's own app; process B is `src/server/main.ts` in a child process on the
 * same PostgreSQL. Notifications made through A reach B's SSE clients through LISTEN/NOTIFY.
 */
let t: TestApp;
let b: ServerProcess;
let bBase: string;
let dataDir: string;
const streams: SseClient[] = [];

beforeAll(async () => {
  t = await createTestApp();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "hearth-process-b-"));
  ({ server: b, base: bBase } = await startServerOnTestDatabase(t, dataDir));
}, 90_000);

afterAll(async () => {
  for (const s of streams) s.close();
  b?.child.kill("SIGTERM");
  await b?.exited;
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("notifications across two server processes", () => {
  it("an action through process A reaches an SSE client of process B within 1 s; a reconnect replays exactly what it missed", async () => {
    const http = api(t.app);
    const author = await signedInUser(t);
    const fan = await signedInUser(t, { name: "Far Away Fan" });
    const c = (await http.post("/api/communities", { name: "Two Rooms" }, { cookie: author.cookie })).body;
    expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: fan.cookie })).status).toBe(200);
    const posts: string[] = [];
    for (let i = 0; i < 4; i++) {
      const p = await http.post(`/api/communities/${c.id}/posts`, { content: `Post ${i}` }, { cookie: author.cookie });
      posts.push(p.body.id);
    }

    const onB = await connectSse(`${bBase}/api/realtime/notifications`, { cookie: author.cookie });
    streams.push(onB);
    expect(onB.status).toBe(200);
    await onB.next((f) => f.event === "ready", { ms: 5000 });

    const likedAt = Date.now();
    expect((await http.post(`/api/posts/${posts[0]}/like`, {}, { cookie: fan.cookie })).status).toBe(200);
    const first = await onB.next((f) => f.event === "notification", { ms: 1000 });
    expect(first.at - likedAt).toBeLessThan(1000);
    const newest = (await http.get("/api/notifications?limit=1", { cookie: author.cookie })).body.items[0];
    expect(first.data).toEqual({ type: "notification", id: newest.id });
    expect(newest.title).toBe("Far Away Fan liked your post");

    // The client drops; three more happen through A; it reconnects to B with Last-Event-ID.
    onB.close();
    for (const id of posts.slice(1)) {
      expect((await http.post(`/api/posts/${id}/like`, {}, { cookie: fan.cookie })).status).toBe(200);
    }
    const missed = (await http.get("/api/notifications?limit=3", { cookie: author.cookie })).body.items
      .map((n: { id: string }) => n.id)
      .reverse();
    const again = await connectSse(`${bBase}/api/realtime/notifications`, {
      cookie: author.cookie,
      lastEventId: first.id!,
    });
    streams.push(again);
    await again.next((f) => f.event === "notification" && f.data.id === missed[2], { ms: 3000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(again.frames.filter((f) => f.event === "notification").map((f) => f.data.id)).toEqual(missed);
    expect(again.frames.some((f) => f.event === "resync")).toBe(false);
  }, 30_000);
  it("the unread count process B keeps moves when process A makes or reads notifications", async () => {
    const http = api(t.app);
    const author = await signedInUser(t);
    const fan = await signedInUser(t);
    const c = (await http.post("/api/communities", { name: "Two Counts" }, { cookie: author.cookie })).body;
    expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: fan.cookie })).status).toBe(200);
    const p = (await http.post(`/api/communities/${c.id}/posts`, { content: "Count me" }, { cookie: author.cookie }))
      .body;
    const onB = async () => {
      const res = await fetch(`${bBase}/api/notifications/unread-count`, { headers: { cookie: author.cookie } });
      return ((await res.json()) as { unread_count: number }).unread_count;
    };
    const becomes = async (n: number) => expect(await readUntil(onB, (last) => last === n)).toBe(n);
    const before = await onB(); // the fan's joining, when the owner hears of new members
    expect(await onB()).toBe(before); // kept by B now
    expect((await http.post(`/api/posts/${p.id}/like`, {}, { cookie: fan.cookie })).status).toBe(200);
    await becomes(before + 1);
    expect((await http.post("/api/notifications/read-all", {}, { cookie: author.cookie })).status).toBe(200);
    await becomes(0);
  }, 30_000);

  it("the likes, saves and votes process B keeps for a reader's feed follow what the reader does through process A", async () => {
    const http = api(t.app);
    const owner = await signedInUser(t);
    const reader = await signedInUser(t);
    const c = (await http.post("/api/communities", { name: "Two Feeds" }, { cookie: owner.cookie })).body;
    expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: reader.cookie })).status).toBe(200);
    const text = (await http.post(`/api/communities/${c.id}/posts`, { content: "Hi" }, { cookie: owner.cookie })).body;
    const poll = (
      await http.post(
        `/api/communities/${c.id}/posts`,
        { type: "poll", content: "Which?", poll: { options: ["a", "b"] } },
        { cookie: owner.cookie },
      )
    ).body;
    type Item = { id: string; liked: boolean; saved: boolean; likes_count: number; user_vote_index: number | null };
    const onB = async () => {
      const res = await fetch(`${bBase}/api/communities/${c.id}/posts`, { headers: { cookie: reader.cookie } });
      const items = ((await res.json()) as { items: Item[] }).items;
      const of = (id: string) => items.find((x) => x.id === id)!;
      return { text: of(text.id), poll: of(poll.id) };
    };
    // What B shows becomes `want` (B hears A's writes a moment later).
    const becomes = (want: (seen: Awaited<ReturnType<typeof onB>>) => boolean) => readUntil(onB, want);
    expect(await onB()).toMatchObject({ text: { liked: false, saved: false }, poll: { user_vote_index: null } });
    expect(await onB()).toMatchObject({ text: { liked: false, saved: false } }); // kept by B now

    expect((await http.post(`/api/posts/${text.id}/like`, {}, { cookie: reader.cookie })).status).toBe(200);
    expect((await becomes((s) => s.text.liked && s.text.likes_count === 1)).text).toMatchObject({
      liked: true,
      likes_count: 1,
    });
    expect((await http.post(`/api/posts/${text.id}/save`, {}, { cookie: reader.cookie })).status).toBe(200);
    expect((await becomes((s) => s.text.saved)).text).toMatchObject({ liked: true, saved: true });
    const vote = await http.post(`/api/posts/${poll.id}/vote`, { option_index: 0 }, { cookie: reader.cookie });
    expect(vote.status).toBe(200);
    expect((await becomes((s) => s.poll.user_vote_index === 0)).poll).toMatchObject({ user_vote_index: 0 });
    expect((await http.post(`/api/posts/${text.id}/like`, {}, { cookie: reader.cookie })).status).toBe(200);
    expect((await becomes((s) => !s.text.liked && s.text.likes_count === 0)).text).toMatchObject({
      liked: false,
      saved: true,
      likes_count: 0,
    });
  }, 30_000);
});
