import { afterAll, beforeAll, expect } from "vitest";
import type { Config } from "#server/config";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";

// Shared by the messages test files: the app, people, communities and conversations made through
// the HTTP API, and SQL for what has no route.

export let t: TestApp;
export let http: ReturnType<typeof api>;

export function useMessagesApp(overrides: Partial<Config> = {}) {
  beforeAll(async () => {
    t = await createTestApp(overrides);
    http = api(t.app);
  });
  afterAll(() => t.close());
}

export type User = Awaited<ReturnType<typeof signedInUser>>;
export const person = (name?: string) => signedInUser(t, name ? { name } : {});

export const q = async <R = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await t.database.pool.query(text, values)).rows as R[];

let made = 0;
/** A community owned by `owner` that each of `members` joins. */
export async function community(owner: User, members: User[] = []) {
  const res = await http.post(
    "/api/communities",
    { name: `Chat ${Date.now().toString(36)}${made++}` },
    { cookie: owner.cookie },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const c = res.body as { id: string };
  for (const m of members)
    expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: m.cookie })).status).toBe(200);
  return c.id;
}

/** Opens the conversation of `from` with `to` (with a first message when given); expects success. */
export async function open(from: User, to: User, body?: string) {
  const res = await http.post(
    "/api/conversations",
    { user_id: to.id, ...(body ? { body } : {}) },
    { cookie: from.cookie },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; can_send: boolean; unread_count: number };
}

export const send = (from: User, conversationId: string, body: string) =>
  http.post(`/api/conversations/${conversationId}/messages`, { body }, { cookie: from.cookie });

export const page = (u: User, conversationId: string, query = "") =>
  http.get(`/api/conversations/${conversationId}${query}`, { cookie: u.cookie });

export const inbox = async (u: User, query = "") => {
  const res = await http.get(`/api/conversations${query}`, { cookie: u.cookie });
  expect(res.status).toBe(200);
  return res.body as {
    conversations: { id: string; other: { id: string }; unread_count: number; last_message: { body: string } | null }[];
    next_cursor: string | null;
    unread: number;
  };
};
