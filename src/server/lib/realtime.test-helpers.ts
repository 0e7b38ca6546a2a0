import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import { buildApp, type HearthApp } from "#server/app";
import { connectDatabase, type Database } from "#server/db/client";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { connectSse, type SseClient } from "#server/test/sse";
import { publishPostEvent, type PostEventType, type PostVisibility, type RealtimeSettings } from "./realtime";

// Shared by realtime.test.ts and realtime-delivery.test.ts: two apps on one database (the second
// stands for another process), SSE clients closed after the file, and a community to stream.

export let t: TestApp;
let base: string;
export let second: { app: HearthApp; database: Database; base: string };

/** Starts the two apps before the file's tests and closes them, and every open stream, after. */
export function useRealtimeApps() {
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
}

export const open: SseClient[] = [];

/** An SSE response read over a real HTTP connection, on the first app unless `at` names another. */
export async function connect(
  path: string,
  opts: { cookie?: string; lastEventId?: string | number; at?: string } = {},
): Promise<SseClient> {
  const stream = await connectSse(new URL(path, opts.at ?? base).toString(), opts);
  open.push(stream);
  return stream;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` with some of the first app's realtime settings changed (read live), then puts them back. */
export async function withRealtimeSettings<T>(patch: Partial<RealtimeSettings>, fn: () => Promise<T>): Promise<T> {
  const settings = t.app.ctx.realtime.settings;
  const saved = { ...settings };
  Object.assign(settings, patch);
  try {
    return await fn();
  } finally {
    Object.assign(settings, saved);
  }
}

export async function publishPost(
  communityId: string,
  visibility: PostVisibility,
  type: PostEventType = "post_created",
  db = t.database.db,
) {
  const postId = randomUUID();
  const id = await db.transaction((tx) => publishPostEvent(tx, { communityId, postId, type, visibility }));
  return { postId, id };
}

export const postIds = (s: SseClient) => s.frames.filter((f) => f.event.startsWith("post_")).map((f) => f.data.post_id);

export async function community(opts: { private?: boolean } = {}) {
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
