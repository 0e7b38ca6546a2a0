import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { buildApp } from "#server/app";
import { connectDatabase } from "#server/db/client";
import { api, signedInUser } from "#server/test/harness";
import { publishPostEvent } from "./realtime";
import {
  community,
  connect,
  postIds,
  publishPost,
  second,
  sleep,
  t,
  useRealtimeApps,
  withRealtimeSettings,
} from "./realtime.test-helpers";

useRealtimeApps();

describe("the realtime bus", () => {
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

  it("keeps a stream's access until the database announces a change, whatever made it (SQL here)", async () => {
    // The default time to live (a minute) stays: only the announcements can make this pass.
    expect(t.app.ctx.realtime.settings.accessTtlMs).toBeGreaterThanOrEqual(60_000);
    const sql = t.database.pool;
    const ended = async (s: Awaited<ReturnType<typeof connect>>) => {
      const deadline = Date.now() + 3_000;
      while (!s.ended && Date.now() < deadline) await sleep(20);
      return s.ended;
    };

    // A member removed by SQL: members' posts stop at once.
    const pub = await community();
    const s = await connect(pub.url, { cookie: pub.member.cookie });
    await s.next((f) => f.event === "ready");
    const before = await publishPost(pub.c.id, "members");
    await s.next((f) => f.data.post_id === before.postId);
    await sql.query("DELETE FROM community_members WHERE community_id = $1 AND user_id = $2", [
      pub.c.id,
      pub.member.id,
    ]);
    const hidden = await publishPost(pub.c.id, "members");
    const visible = await publishPost(pub.c.id, "public");
    await s.next((f) => f.data.post_id === visible.postId);
    expect(postIds(s)).toEqual([before.postId, visible.postId]);
    expect(postIds(s)).not.toContain(hidden.postId);

    // A community made private by SQL: a visitor's stream ends.
    const visitor = await connect(pub.url);
    await visitor.next((f) => f.event === "ready");
    const seen = await publishPost(pub.c.id, "public");
    await visitor.next((f) => f.data.post_id === seen.postId);
    await sql.query("UPDATE communities SET visibility = 'private' WHERE id = $1", [pub.c.id]);
    const unseen = await publishPost(pub.c.id, "public");
    expect(await ended(visitor)).toBe(true);
    expect(postIds(visitor)).not.toContain(unseen.postId);

    // A session deleted by SQL: the owner's stream ends.
    const o = await connect(pub.url, { cookie: pub.owner.cookie });
    await o.next((f) => f.event === "ready");
    const mine = await publishPost(pub.c.id, "members");
    await o.next((f) => f.data.post_id === mine.postId);
    await sql.query("DELETE FROM session WHERE user_id = $1", [pub.owner.id]);
    await publishPost(pub.c.id, "public");
    expect(await ended(o)).toBe(true);
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
    // Nothing kept (each stream keeps what its opening read): every stream must read its access.
    const settings = t.app.ctx.realtime.settings;
    const ttl = settings.accessTtlMs;
    settings.accessTtlMs = 0;
    const query = vi.spyOn(t.app.ctx.pool, "query");
    try {
      const { postId } = await publishPost(c.id, "members");
      await Promise.all(streams.map((s) => s.next((f) => f.data.post_id === postId)));
      const accessReads = query.mock.calls.filter(([text]) => String(text).includes("WITH ORDINALITY"));
      expect(accessReads).toHaveLength(1);
    } finally {
      settings.accessTtlMs = ttl;
      query.mockRestore();
      for (const s of streams) s.close();
    }
  });

  it("writes each open stream a heartbeat comment when it is due", () =>
    withRealtimeSettings({ heartbeatMs: 300 }, async () => {
      const { member, url } = await community();
      const a = await connect(url, { cookie: member.cookie });
      const b = await connect(url);
      await Promise.all([a, b].map((s) => s.next((f) => f.event === "ready")));
      const pings = (s: { comments: string[] }) => s.comments.filter((c) => c === "ping").length;
      const deadline = Date.now() + 5_000;
      while (!(pings(a) > 0 && pings(b) > 0) && Date.now() < deadline) await sleep(50);
      expect([pings(a), pings(b)].map((n) => n > 0)).toEqual([true, true]);
      // Not one per tick: at most one per heartbeatMs (with the ticker's second of slack).
      const [before, since] = [pings(a), Date.now()];
      const until = Date.now() + 10_000;
      while (pings(a) < before + 2 && Date.now() < until) await sleep(50);
      expect(pings(a)).toBeGreaterThanOrEqual(before + 2);
      expect(pings(a) - before).toBeLessThanOrEqual(Math.ceil((Date.now() - since) / 300) + 1);
      a.close();
      b.close();
    }));

  it("caps concurrent streams per user", () =>
    withRealtimeSettings({ maxStreamsPerUser: 2 }, async () => {
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
    }));
});
