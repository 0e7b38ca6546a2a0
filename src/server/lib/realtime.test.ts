import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { connect as connectTcp } from "node:net";
import { describe, expect, it } from "vitest";
import { api, signedInUser } from "#server/test/harness";
import { publishPostEvent } from "./realtime";
import { community, connect, postIds, publishPost, sleep, t, useRealtimeApps } from "./realtime.test-helpers";

useRealtimeApps();

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

  it("frames each event as the connection expects: HTTP/1.1 chunks, raw bytes for HTTP/1.0", async () => {
    const { c, url } = await community();
    const { port } = t.app.server.address() as AddressInfo;
    // Each version's stream as the bytes that arrive, read by hand (no HTTP client to mend them).
    const raw = (version: string) => {
      const socket = connectTcp(port, "127.0.0.1");
      socket.setEncoding("latin1");
      const got = { text: "" };
      socket.on("data", (d: string) => (got.text += d));
      socket.write(`GET ${url} ${version}\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
      return { socket, got };
    };
    const streams = { chunked: raw("HTTP/1.1"), plain: raw("HTTP/1.0") };
    for (const s of Object.values(streams)) await expect.poll(() => s.got.text).toContain("event: ready\n");
    const { postId, id } = await publishPost(c.id, "public");
    const frame = `id: ${id}\nevent: post_created\ndata: {"type":"post_created","post_id":"${postId}"}\n\n`;
    await expect.poll(() => streams.chunked.got.text).toContain(`\r\n${frame.length.toString(16)}\r\n${frame}\r\n`);
    expect(streams.chunked.got.text).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*transfer-encoding: chunked\r\n/i);
    await expect.poll(() => streams.plain.got.text).toContain(`\n\n${frame}`);
    expect(streams.plain.got.text).not.toMatch(/transfer-encoding/i);
    expect(streams.plain.got.text).not.toContain(`${frame.length.toString(16)}\r\n${frame}`);
    for (const s of Object.values(streams)) s.socket.destroy();
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
});
