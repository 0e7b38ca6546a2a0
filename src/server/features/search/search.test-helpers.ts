import { expect } from "vitest";
import type { SearchResponse } from "#shared/search.schemas";
import type { SearchKind } from "#shared/search";
import { api, signedInUser, type TestApp } from "#server/test/harness";

/** Users, communities and content made through the HTTP app (SQL only where no route exists). */
export function searchFixtures(t: TestApp) {
  const http = api(t.app);
  const q = async <R = Record<string, unknown>>(text: string, values: unknown[] = []) =>
    (await t.database.pool.query(text, values)).rows as R[];
  type User = Awaited<ReturnType<typeof signedInUser>>;
  const user = (opts: { name?: string; username?: string } = {}) => signedInUser(t, opts);

  async function community(owner: User, opts: { private?: boolean; name?: string } = {}) {
    const res = await http.post(
      "/api/communities",
      { name: `${opts.name ?? "Search"} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}` },
      { cookie: owner.cookie },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const c = res.body as { id: string; slug: string };
    if (opts.private) await q(`UPDATE communities SET visibility = 'private' WHERE id = $1`, [c.id]);
    return c;
  }
  async function addMember(communityId: string, u: User, role = "member") {
    await q(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)`, [
      communityId,
      u.id,
      role,
    ]);
  }
  async function post(communityId: string, u: User, content: string, extra: Record<string, unknown> = {}) {
    const res = await http.post(`/api/communities/${communityId}/posts`, { content, ...extra }, { cookie: u.cookie });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  }
  async function comment(postId: string, u: User, content: string) {
    const res = await http.post(`/api/posts/${postId}/comments`, { content }, { cookie: u.cookie });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  }
  async function search(
    path: string,
    params: Record<string, string>,
    u?: { cookie: string } | null,
  ): Promise<{ status: number; body: SearchResponse }> {
    const res = await http.get(path, { cookie: u?.cookie, query: params });
    return { status: res.status, body: res.body as SearchResponse };
  }
  const communitySearch = (communityId: string, params: Record<string, string>, u?: { cookie: string } | null) =>
    search(`/api/communities/${communityId}/search`, params, u);
  const globalSearch = (params: Record<string, string>, u?: { cookie: string } | null) =>
    search("/api/search", params, u);
  return { http, q, user, community, addMember, post, comment, communitySearch, globalSearch };
}

/** The ids of one kind's results. */
export function ids(body: SearchResponse, kind: SearchKind): string[] {
  return body.groups.find((g) => g.kind === kind)?.results.map((r) => r.id) ?? [];
}
export function groupOf(body: SearchResponse, kind: SearchKind) {
  const g = body.groups.find((x) => x.kind === kind);
  if (!g) throw new Error(`no ${kind} group`);
  return g;
}
