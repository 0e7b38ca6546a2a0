import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp, type HearthApp } from "#server/app";
import { connectDatabase, type Database } from "#server/db/client";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { connectSse, type SseClient } from "#server/test/sse";
import { publishPostEvent, type PostEventType, type PostVisibility } from "./realtime";

let t: TestApp;
let base: string;
let second: { app: HearthApp; database: Database; base: string };

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  // A second process on the same database.
  const database = connectDatabase(t.database.url, { max: 3 });
  const app = await buildApp({ config: t.config, database, logger: false, startWorker: false });
  const secondBase = await app.listen({ port: 0, host: "127.0.0.1" });
  second = { app, database, base: secondBase };
});
afterAll(async () => {
  for (const s of open) s.close();
  await second.app.close();
  await second.database.close();
  await t.close();
});

const open: SseClient[] = [];

/** An SSE response read over a real HTTP connection, on the first app unless `at` names another. */
async function connect(
  path: string,
  opts: { cookie?: string; lastEventId?: string | number; at?: string } = {},
): Promise<SseClient> {
  const stream = await connectSse(new URL(path, opts.at ?? base).toString(), opts);
  open.push(stream);
  return stream;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function publishPost(
  communityId: string,
  visibility: PostVisibility,
  type: PostEventType = "post_created",
  db = t.database.db,
) {
  const postId = randomUUID();
  const id = await db.transaction((tx) => publishPostEvent(tx, { communityId, postId, type, visibility }));
  return { postId, id };
}

const postIds = (s: SseClient) => s.frames.filter((f) => f.event.startsWith("post_")).map((f) => f.data.post_id);

async function community(opts: { private?: boolean } = {}) {
  const http = api(t.app);
  const owner = await signedInUser(t);
  const c = (
    await http.post("/api/communities", { name: `Live ${randomUUID().slice(0, 8)}` }, { cookie: owner.cookie })
  ).body as { id: string; slug: string };
  const member = await signedInUser(t);
  expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: member.cookie })).status).toBeLessThan(300);
  if (opts.private) {
    expect(
      (await http.patch(`/api/communities/${c.id}`, { visibility: "private" }, { cookie: owner.cookie })).status,
    ).toBe(200);
  }
  return { c, owner, member, url: `/api/realtime/communities/${c.id}` };
}

describe("the realtime bus", () => {
  it("answers with an event stream that starts with a ready frame carrying a cursor", async () => {
    const { url } = await community();
    const s = await connect(url);
    expect(s.status).toBe(200);
    expect(s.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(s.headers["cache-control"]).toBe("no-cache, no-transform");
    expect(s.headers["x-accel-buffering"]).toBe("no");
    const ready = await s.next((f) => f.event === "ready");
    expect(s.frames[0]).toBe(ready);
    expect(ready.id).toMatch(/^\d+$/);
    s.close();
  });

  it("announces an event when its transaction commits, never one that rolled back", async () => {
    const { c, url } = await community();
    const s = await connect(url);
    await s.next((f) => f.event === "ready");

    const rolledBack = randomUUID();
    await expect(
      t.database.db.transaction(async (tx) => {
        await publishPostEvent(tx, {
          communityId: c.id,
          postId: rolledBack,
          type: "post_created",
          visibility: "public",
        });
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");

    const committed = randomUUID();
    let commit!: () => void;
    const held = new Promise<void>((r) => (commit = r));
    const done = t.database.db.transaction(async (tx) => {
      await publishPostEvent(tx, { communityId: c.id, postId: committed, type: "post_updated", visibility: "public" });
      await held;
    });
    await sleep(300);
    expect(postIds(s)).toEqual([]);
    commit();
    await done;
    const frame = await s.next((f) => f.data.post_id === committed);
    expect(frame.event).toBe("post_updated");
    // Only the type and the post's id travel: clients refetch through the API.
    expect(frame.data).toEqual({ type: "post_updated", post_id: committed });
    await sleep(100);
    expect(postIds(s)).toEqual([committed]);
    s.close();
  });

  it("sends each viewer only the events of posts their current role may see", async () => {
    const http = api(t.app);
    const { c, owner, member, url } = await community();
    const admin = await signedInUser(t);
    await http.post(`/api/communities/${c.id}/join`, {}, { cookie: admin.cookie });
    expect(
      (await http.patch(`/api/communities/${c.id}/members/${admin.id}`, { role: "admin" }, { cookie: owner.cookie }))
        .status,
    ).toBe(200);
    const outsider = await signedInUser(t);

    const viewers = {
      anonymous: await connect(url),
      outsider: await connect(url, { cookie: outsider.cookie }),
      member: await connect(url, { cookie: member.cookie }),
      admin: await connect(url, { cookie: admin.cookie }),
      owner: await connect(url, { cookie: owner.cookie }),
    };
    for (const s of Object.values(viewers)) await s.next((f) => f.event === "ready");

    const pub = await publishPost(c.id, "public");
    const mem = await publishPost(c.id, "members");
    const adm = await publishPost(c.id, "admins");
    const end = await publishPost(c.id, "public", "post_deleted");
    for (const s of Object.values(viewers)) await s.next((f) => f.data.post_id === end.postId);

    expect(postIds(viewers.anonymous)).toEqual([pub.postId, end.postId]);
    expect(postIds(viewers.outsider)).toEqual([pub.postId, end.postId]);
    expect(postIds(viewers.member)).toEqual([pub.postId, mem.postId, end.postId]);
    expect(postIds(viewers.admin)).toEqual([pub.postId, mem.postId, adm.postId, end.postId]);
    expect(postIds(viewers.owner)).toEqual([pub.postId, mem.postId, adm.postId, end.postId]);
    // Frame ids are the event ids (what EventSource sends back as Last-Event-ID).
    expect(viewers.owner.frames.find((f) => f.data.post_id === adm.postId)?.id).toBe(String(adm.id));
    for (const s of Object.values(viewers)) s.close();
  });

  it("answers 404 for a private community to anyone who is not a member, as the API does", async () => {
    const { c, member, url } = await community({ private: true });
    const outsider = await signedInUser(t);
    const anonymous = await connect(url);
    expect(anonymous.status).toBe(404);
    expect(JSON.parse(anonymous.body).error.code).toBe("NOT_FOUND");
    expect((await connect(url, { cookie: outsider.cookie })).status).toBe(404);
    expect((await connect(`/api/realtime/communities/${c.slug}`, { cookie: outsider.cookie })).status).toBe(404);
    expect((await connect(`/api/realtime/communities/${randomUUID()}`)).status).toBe(404);

    const s = await connect(url, { cookie: member.cookie });
    expect(s.status).toBe(200);
    await s.next((f) => f.event === "ready");
    const mem = await publishPost(c.id, "members");
    await s.next((f) => f.data.post_id === mem.postId);
    s.close();
  });

  it("replays what a reconnecting client missed after its Last-Event-ID, still filtered", async () => {
    const { c, member, url } = await community();
    const first = await connect(url);
    const ready = await first.next((f) => f.event === "ready");
    first.close();

    const a = await publishPost(c.id, "public");
    const hidden = await publishPost(c.id, "members");
    const b = await publishPost(c.id, "public", "post_updated");

    const again = await connect(url, { lastEventId: ready.id ?? "" });
    await again.next((f) => f.data.post_id === b.postId);
    expect(again.frames.map((f) => f.event)).toEqual(["ready", "post_created", "post_updated"]);
    expect(postIds(again)).toEqual([a.postId, b.postId]);
    expect(again.frames.map((f) => f.id)).toEqual([null, String(a.id), String(b.id)]);
    again.close();

    // The query parameter works too (EventSource polyfills), and a member gets the hidden one.
    const viaQuery = await connect(`${url}?lastEventId=${a.id}`, { cookie: member.cookie });
    await viaQuery.next((f) => f.data.post_id === b.postId);
    expect(postIds(viaQuery)).toEqual([hidden.postId, b.postId]);
    // Live events follow the replay.
    const live = await publishPost(c.id, "public");
    await viaQuery.next((f) => f.data.post_id === live.postId);
    viaQuery.close();

    // Nothing missed: ready, and nothing replayed.
    const current = await connect(url, { lastEventId: live.id });
    await current.next((f) => f.event === "ready");
    await sleep(150);
    expect(postIds(current)).toEqual([]);
    current.close();
  });

  it("does not send twice an event the replay sent when its announcement comes late", async () => {
    const { c, url } = await community();
    const first = await connect(url);
    const ready = await first.next((f) => f.event === "ready");
    first.close();
    const a = await publishPost(c.id, "public");
    const again = await connect(url, { lastEventId: ready.id ?? "" });
    await again.next((f) => f.data.post_id === a.postId);
    // NOTIFY of a commit made before the subscription can reach the hub after the replay.
    (t.app.ctx.realtime as unknown as { announced: (payload: string) => void }).announced(`community:${c.id}|${a.id}`);
    await sleep(200);
    expect(postIds(again)).toEqual([a.postId]);
    const b = await publishPost(c.id, "public");
    await again.next((f) => f.data.post_id === b.postId);
    expect(postIds(again)).toEqual([a.postId, b.postId]);
    again.close();
  });

  it("answers resync when more than 100 events were missed, or the id is no longer kept", async () => {
    const { c, url } = await community();
    const first = await connect(url);
    const ready = await first.next((f) => f.event === "ready");
    first.close();

    let lastId = 0;
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 101; i++) {
        lastId = await publishPostEvent(tx, {
          communityId: c.id,
          postId: randomUUID(),
          type: "post_created",
          visibility: "public",
        });
      }
    });
    await sleep(300); // this process has heard them all
    const again = await connect(url, { lastEventId: ready.id ?? "" });
    const resync = await again.next((f) => f.event === "resync");
    expect(again.frames[0]).toBe(resync);
    expect(resync.data).toEqual({ type: "resync" });
    expect(Number(resync.id)).toBeGreaterThanOrEqual(lastId);
    await sleep(150);
    expect(postIds(again)).toEqual([]);
    again.close();

    // 100 missed are read, but the client still gets at most 10 frames a second: the first ones,
    // then one resync carrying the newest id in place of the rest.
    const ids: number[] = [];
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 100; i++) {
        ids.push(
          await publishPostEvent(tx, {
            communityId: c.id,
            postId: randomUUID(),
            type: "post_created",
            visibility: "public",
          }),
        );
      }
    });
    await sleep(300);
    const replay = await connect(url, { lastEventId: lastId });
    await replay.next((f) => f.event === "resync", { ms: 4_000 });
    expect(replay.frames.map((f) => f.event)).toEqual(["ready", ...Array(9).fill("post_created"), "resync"]);
    expect(replay.frames.slice(1, 10).map((f) => Number(f.id))).toEqual(ids.slice(0, 9));
    expect(replay.frames[10].id).toBe(String(ids[99]));
    replay.close();

    // 15 missed are all replayed, paced.
    const few: number[] = [];
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 15; i++) {
        few.push(
          await publishPostEvent(tx, {
            communityId: c.id,
            postId: randomUUID(),
            type: "post_created",
            visibility: "public",
          }),
        );
      }
    });
    await sleep(300);
    const paced = await connect(url, { lastEventId: ids[99] });
    await paced.next((f) => f.id === String(few[14]), { ms: 4_000 });
    expect(paced.frames.filter((f) => f.event === "post_created").map((f) => Number(f.id))).toEqual(few);
    paced.close();
  }, 30_000);

  it("prunes the backlog to a bounded prefix, and resyncs a client whose id is older than what is kept", async () => {
    const hub = t.app.ctx.realtime;
    const { c, url } = await community();
    const old = await publishPost(c.id, "public");
    const { keepSeconds, keepPerChannel } = hub.settings;
    try {
      // Per channel: only the newest keepPerChannel stay.
      hub.settings.keepPerChannel = 101;
      await t.database.db.transaction(async (tx) => {
        for (let i = 0; i < 150; i++) {
          await publishPostEvent(tx, {
            communityId: c.id,
            postId: randomUUID(),
            type: "post_created",
            visibility: "public",
          });
        }
      });
      await hub.prune([`community:${c.id}`]);
      const kept = await t.database.pool.query("SELECT count(*)::int AS n FROM realtime_events WHERE channel = $1", [
        `community:${c.id}`,
      ]);
      expect(kept.rows[0].n).toBe(101);

      // By age: everything older than keepSeconds goes, except the newest row.
      hub.settings.keepSeconds = 0;
      await hub.prune();
      const left = await t.database.pool.query("SELECT count(*)::int AS n FROM realtime_events");
      expect(left.rows[0].n).toBe(1);
    } finally {
      hub.settings.keepSeconds = keepSeconds;
      hub.settings.keepPerChannel = keepPerChannel;
    }
    const again = await connect(url, { lastEventId: old.id });
    expect((await again.next(() => true)).event).toBe("resync");
    again.close();
  });

  it("delivers an event published through one process to a subscriber of another", async () => {
    const { c, member, url } = await community();
    const there = await connect(url, { cookie: member.cookie, at: second.base });
    await there.next((f) => f.event === "ready");
    const here = await publishPost(c.id, "members", "post_created", t.app.ctx.db);
    await there.next((f) => f.data.post_id === here.postId);
    // And the other way round.
    const local = await connect(url, { cookie: member.cookie });
    await local.next((f) => f.event === "ready");
    const back = await publishPost(c.id, "public", "post_updated", second.app.ctx.db);
    await local.next((f) => f.data.post_id === back.postId);
    await there.next((f) => f.data.post_id === back.postId);
    there.close();
    local.close();
  });

  it("ends open streams when the app closes", async () => {
    const database = connectDatabase(t.database.url, { max: 2 });
    const app = await buildApp({ config: t.config, database, logger: false, startWorker: false });
    const at = await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const { url } = await community();
      const s = await connect(url, { at });
      await s.next((f) => f.event === "ready");
      expect(app.ctx.realtime.subscriberCount).toBe(1);
      const started = Date.now();
      await app.close();
      expect(Date.now() - started).toBeLessThan(2_000);
      const deadline = Date.now() + 2_000;
      while (!s.ended && Date.now() < deadline) await sleep(20);
      expect(s.ended).toBe(true);
      expect(app.ctx.realtime.subscriberCount).toBe(0);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it("sends at most 10 frames a second per client, holding a few back and coalescing the rest into resync", async () => {
    const { c, url } = await community();
    const s = await connect(url);
    await s.next((f) => f.event === "ready");
    await sleep(1_100);

    // 15 at once: 10 now, 5 a second later; none lost.
    const burst: string[] = [];
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 15; i++) {
        const postId = randomUUID();
        burst.push(postId);
        await publishPostEvent(tx, { communityId: c.id, postId, type: "post_created", visibility: "public" });
      }
    });
    await s.next((f) => f.data.post_id === burst[14], { ms: 4_000 });
    expect(postIds(s)).toEqual(burst);
    const times = s.frames.filter((f) => f.event === "post_created").map((f) => f.at);
    expect(times[10] - times[0]).toBeGreaterThanOrEqual(900);
    await sleep(1_100);

    // 40 at once: 10 now, 10 held back, the rest coalesced into one resync.
    const from = s.frames.length;
    let last = 0;
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 40; i++) {
        last = await publishPostEvent(tx, {
          communityId: c.id,
          postId: randomUUID(),
          type: "post_created",
          visibility: "public",
        });
      }
    });
    const resync = await s.next((f) => f.event === "resync", { from, ms: 4_000 });
    expect(resync.id).toBe(String(last));
    await sleep(1_200);
    const after = s.frames.slice(from);
    expect(after.length).toBeLessThanOrEqual(21);
    expect(after.at(-1)).toBe(resync);
    // Never more than 10 in any second.
    const all = s.frames.map((f) => f.at);
    for (let i = 0; i + 10 < all.length; i++) expect(all[i + 10] - all[i]).toBeGreaterThanOrEqual(900);
    s.close();
  }, 20_000);

  it("stops sending members' events to a removed member, and ends the stream in a private community", async () => {
    const http = api(t.app);
    const settings = t.app.ctx.realtime.settings;
    const ttl = settings.accessTtlMs;
    settings.accessTtlMs = 0;
    try {
      const pub = await community();
      const s = await connect(pub.url, { cookie: pub.member.cookie });
      await s.next((f) => f.event === "ready");
      const before = await publishPost(pub.c.id, "members");
      await s.next((f) => f.data.post_id === before.postId);
      expect(
        (await http.delete(`/api/communities/${pub.c.id}/members/${pub.member.id}`, { cookie: pub.owner.cookie }))
          .status,
      ).toBe(204);
      const hidden = await publishPost(pub.c.id, "members");
      const visible = await publishPost(pub.c.id, "public");
      await s.next((f) => f.data.post_id === visible.postId);
      expect(postIds(s)).toEqual([before.postId, visible.postId]);
      expect(postIds(s)).not.toContain(hidden.postId);
      s.close();

      const priv = await community({ private: true });
      const p = await connect(priv.url, { cookie: priv.member.cookie });
      await p.next((f) => f.event === "ready");
      await http.delete(`/api/communities/${priv.c.id}/members/${priv.member.id}`, { cookie: priv.owner.cookie });
      const gone = await publishPost(priv.c.id, "public");
      const deadline = Date.now() + 3_000;
      while (!p.ended && Date.now() < deadline) await sleep(20);
      expect(p.ended).toBe(true);
      expect(postIds(p)).not.toContain(gone.postId);
      expect((await connect(priv.url, { cookie: priv.member.cookie })).status).toBe(404);

      // Signing out ends the stream too.
      const o = await connect(priv.url, { cookie: priv.owner.cookie });
      await o.next((f) => f.event === "ready");
      await http.post("/api/auth/sign-out", {}, { cookie: priv.owner.cookie });
      await publishPost(priv.c.id, "public");
      const until = Date.now() + 3_000;
      while (!o.ended && Date.now() < until) await sleep(20);
      expect(o.ended).toBe(true);
    } finally {
      settings.accessTtlMs = ttl;
    }
  });

  it("checks the access of every member's stream for one event with a single query", async () => {
    const { c, url } = await community();
    const http = api(t.app);
    const members = [];
    for (let i = 0; i < 25; i++) {
      const m = await signedInUser(t);
      await http.post(`/api/communities/${c.id}/join`, {}, { cookie: m.cookie });
      members.push(m);
    }
    const streams = await Promise.all(members.map((m) => connect(url, { cookie: m.cookie })));
    await Promise.all(streams.map((s) => s.next((f) => f.event === "ready")));
    const query = vi.spyOn(t.app.ctx.pool, "query");
    try {
      const { postId } = await publishPost(c.id, "members");
      await Promise.all(streams.map((s) => s.next((f) => f.data.post_id === postId)));
      const accessReads = query.mock.calls.filter(([text]) => String(text).includes("WITH ORDINALITY"));
      expect(accessReads).toHaveLength(1);
    } finally {
      query.mockRestore();
      for (const s of streams) s.close();
    }
  });

  it("caps concurrent streams per user", async () => {
    const settings = t.app.ctx.realtime.settings;
    const cap = settings.maxStreamsPerUser;
    settings.maxStreamsPerUser = 2;
    try {
      const { member, url } = await community();
      const a = await connect(url, { cookie: member.cookie });
      const b = await connect(url, { cookie: member.cookie });
      expect([a.status, b.status]).toEqual([200, 200]);
      const c = await connect(url, { cookie: member.cookie });
      expect(c.status).toBe(429);
      a.close();
      const deadline = Date.now() + 3_000;
      let d = await connect(url, { cookie: member.cookie });
      while (d.status !== 200 && Date.now() < deadline) {
        await sleep(50);
        d = await connect(url, { cookie: member.cookie });
      }
      expect(d.status).toBe(200);
      b.close();
      d.close();
    } finally {
      settings.maxStreamsPerUser = cap;
    }
  });
});
