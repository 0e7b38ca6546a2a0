import { afterAll, beforeAll, expect } from "vitest";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import type { SseClient } from "#server/test/sse";

// Shared by notifications.test.ts (events, settings, reading) and notifications-delivery.test.ts
// (realtime, email digests): the app, and helpers that act through its HTTP API.

export let t: TestApp;
export let http: ReturnType<typeof api>;
export let base: string;
export const streams: SseClient[] = [];

/** Starts the app, listening, before the file's tests; closes it and every open stream after. */
export function useNotificationsApp() {
  beforeAll(async () => {
    t = await createTestApp();
    http = api(t.app);
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t.close();
  });
}

export type User = Awaited<ReturnType<typeof signedInUser>>;
type Item = {
  id: string;
  type: string;
  title: string;
  body: string;
  community_id: string | null;
  post_id: string | null;
  is_read: boolean;
  href: string;
  actor: { username: string } | null;
};

export const user = (name?: string) => signedInUser(t, name ? { name } : {});

export async function community(owner: User, opts: { visibility?: string; moderation?: boolean } = {}) {
  const c = (await http.post("/api/communities", { name: `Bell ${Date.now().toString(36)}` }, { cookie: owner.cookie }))
    .body as { id: string; slug: string; invite_code?: string };
  const patch: Record<string, unknown> = {};
  if (opts.visibility) patch.visibility = opts.visibility;
  if (opts.moderation) patch.moderation_enabled = true;
  if (Object.keys(patch).length) {
    expect((await http.patch(`/api/communities/${c.id}`, patch, { cookie: owner.cookie })).status).toBe(200);
  }
  return c;
}
export const join = async (c: { id: string }, u: User) =>
  expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: u.cookie })).status).toBe(200);
export const post = async (c: { id: string }, u: User, content = "Hello everyone, this is my post") => {
  const res = await http.post(`/api/communities/${c.id}/posts`, { content }, { cookie: u.cookie });
  expect(res.status).toBe(201);
  return res.body as { id: string };
};
export const like = async (p: { id: string }, u: User) =>
  expect((await http.post(`/api/posts/${p.id}/like`, {}, { cookie: u.cookie })).status).toBe(200);
export const comment = async (p: { id: string }, u: User, content: string, parentId?: string) => {
  const res = await http.post(`/api/posts/${p.id}/comments`, { content, parent_id: parentId }, { cookie: u.cookie });
  expect(res.status).toBe(201);
  return res.body as { id: string };
};
export const list = async (u: User, query = "") => {
  const res = await http.get(`/api/notifications${query}`, { cookie: u.cookie });
  expect(res.status).toBe(200);
  return res.body as { items: Item[]; next_cursor: string | null; unread_count: number };
};
export const items = async (u: User) => (await list(u)).items;
export const rows = async (userId: string) =>
  (await t.database.pool.query(`SELECT * FROM notifications WHERE user_id = $1 ORDER BY created_at, id`, [userId]))
    .rows;
export const settings = (u: User, body: Record<string, unknown>) =>
  http.patch("/api/me/notification-settings", body, { cookie: u.cookie });
