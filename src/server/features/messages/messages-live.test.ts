import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { startServerOnTestDatabase, type ServerProcess } from "#server/test/server-process";
import { connectSse, type SseClient } from "#server/test/sse";

/**
 * Live delivery of messages (issue 22) across two server processes: process A is the test's own
 * app (listening), process B is `src/server/main.ts` in a child process on the same PostgreSQL.
 * A message sent through A reaches the recipient's streams on both processes (every open tab) and
 * the sender's own other tabs; a stream that reconnects with Last-Event-ID gets exactly what it
 * missed.
 */
let t: TestApp;
let b: ServerProcess;
let aBase: string;
let bBase: string;
let dataDir: string;
const streams: SseClient[] = [];

beforeAll(async () => {
  t = await createTestApp();
  aBase = await t.app.listen({ port: 0, host: "127.0.0.1" });
  dataDir = mkdtempSync(path.join(os.tmpdir(), "hearth-messages-b-"));
  ({ server: b, base: bBase } = await startServerOnTestDatabase(t, dataDir));
}, 90_000);

afterAll(async () => {
  for (const s of streams) s.close();
  b?.child.kill("SIGTERM");
  await b?.exited;
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const stream = async (base: string, cookie: string, lastEventId?: string) => {
  const s = await connectSse(`${base}/api/realtime/notifications`, { cookie, lastEventId });
  streams.push(s);
  expect(s.status).toBe(200);
  await s.next((f) => f.event === "ready", { ms: 5000 });
  return s;
};

describe("messages, live across two processes", () => {
  it("a message sent through A reaches every tab of both people on A and B within 1 s; a reconnect replays exactly what it missed", async () => {
    const http = api(t.app);
    const ann = await signedInUser(t, { name: "Ann Sender" });
    const bob = await signedInUser(t, { name: "Bob Receiver" });
    const c = (await http.post("/api/communities", { name: "Live Chat Room" }, { cookie: ann.cookie })).body;
    expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: bob.cookie })).status).toBe(200);
    const conv = (await http.post("/api/conversations", { user_id: bob.id }, { cookie: ann.cookie })).body;

    const bobOnB = await stream(bBase, bob.cookie);
    const bobOnA = await stream(aBase, bob.cookie);
    const annOnB = await stream(bBase, ann.cookie);

    const sentAt = Date.now();
    const sent = await http.post(
      `/api/conversations/${conv.id}/messages`,
      { body: "Are you there?" },
      { cookie: ann.cookie },
    );
    expect(sent.status).toBe(201);
    const isNew = (f: { event: string; data: Record<string, unknown> }) =>
      f.event === "message_new" && f.data.conversation_id === conv.id;
    for (const s of [bobOnB, bobOnA, annOnB]) {
      const frame = await s.next(isNew, { ms: 1000 });
      expect(frame.at - sentAt).toBeLessThan(1000);
      // A hint only: the conversation's id, never the message.
      expect(frame.data).toEqual({ type: "message_new", conversation_id: conv.id });
    }

    // Bob reads it: Ann's tab hears of the seen mark.
    await http.post(`/api/conversations/${conv.id}/read`, {}, { cookie: bob.cookie });
    await annOnB.next((f) => f.event === "message_read" && f.data.conversation_id === conv.id, { ms: 1000 });

    // Bob's tab on B drops; three more messages and an edit happen through A; it reconnects to B.
    const last = bobOnB.frames.filter(isNew).at(-1)!;
    bobOnB.close();
    for (const body of ["one", "two", "three"]) {
      expect((await http.post(`/api/conversations/${conv.id}/messages`, { body }, { cookie: ann.cookie })).status).toBe(
        201,
      );
    }
    const again = await connectSse(`${bBase}/api/realtime/notifications`, {
      cookie: bob.cookie,
      lastEventId: last.id!,
    });
    streams.push(again);
    await again.next((f) => isNew(f) && again.frames.filter(isNew).length === 3, { ms: 3000 });
    // Events of Bob's channel only, in order, nothing twice, no resync.
    const replayed = again.frames.filter((f) => f.event.startsWith("message_"));
    expect(replayed.map((f) => f.event)).toEqual(["message_read", "message_new", "message_new", "message_new"]);
    expect(new Set(replayed.map((f) => f.id)).size).toBe(4);
    expect(again.frames.some((f) => f.event === "resync")).toBe(false);
    // Nobody else's stream hears of the conversation.
    const eve = await signedInUser(t);
    const eveOnA = await stream(aBase, eve.cookie);
    await http.post(`/api/conversations/${conv.id}/messages`, { body: "private" }, { cookie: ann.cookie });
    await bobOnA.next((f) => isNew(f) && bobOnA.frames.filter(isNew).length === 5, { ms: 1000 });
    expect(eveOnA.frames.filter((f) => f.event.startsWith("message_"))).toEqual([]);
  }, 40_000);
});
