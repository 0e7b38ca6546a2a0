import { expect } from "vitest";
import type { CommunityRole } from "#shared/roles";
import { api, signedInUser, type TestApp } from "#server/test/harness";

// What the reports tests share: people in roles, posts, comments, messages, reports and notices.

export type User = Awaited<ReturnType<typeof signedInUser>>;

export function reportsKit(t: TestApp) {
  const http = api(t.app);
  const q = async <R = Record<string, unknown>>(text: string, values: unknown[] = []) =>
    (await t.database.pool.query(text, values)).rows as R[];

  /** A community with an owner and one member per role given, each through the join route. */
  async function community(opts: { private?: boolean; roles?: CommunityRole[] } = {}) {
    const owner = await signedInUser(t);
    const res = await http.post(
      "/api/communities",
      { name: `Reports ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}` },
      { cookie: owner.cookie },
    );
    expect(res.status).toBe(201);
    const id = res.body.id as string;
    const people: Partial<Record<CommunityRole, User>> & { owner: User } = { owner };
    for (const role of opts.roles ?? []) people[role] = await join(id, role);
    if (opts.private) await q(`UPDATE communities SET visibility = 'private' WHERE id = $1`, [id]);
    return { id, ...people };
  }

  /** A new user who joins the community, then gets the role. */
  async function join(communityId: string, role: CommunityRole = "member") {
    const u = await signedInUser(t);
    expect((await http.post(`/api/communities/${communityId}/join`, {}, { cookie: u.cookie })).status).toBe(200);
    if (role !== "member") {
      await q(`UPDATE community_members SET role = $3 WHERE community_id = $1 AND user_id = $2`, [
        communityId,
        u.id,
        role,
      ]);
    }
    return u;
  }

  const post = async (communityId: string, u: User, content = "a post to report") => {
    const res = await http.post(`/api/communities/${communityId}/posts`, { content }, { cookie: u.cookie });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  const comment = async (postId: string, u: User, content = "a comment to report") => {
    const res = await http.post(`/api/posts/${postId}/comments`, { content }, { cookie: u.cookie });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  /** A conversation between two people with messages (sender index, body), oldest first; answers their ids. */
  async function conversation(a: User, b: User, messages: [0 | 1, string][]) {
    const [low, high] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
    const [conv] = await q<{ id: string }>(
      `INSERT INTO conversations (user_low, user_high) VALUES ($1, $2) RETURNING id`,
      [low, high],
    );
    await q(
      `INSERT INTO conversation_members (conversation_id, user_id, other_user_id) VALUES ($1, $2, $3), ($1, $3, $2)`,
      [conv.id, a.id, b.id],
    );
    const ids: string[] = [];
    for (const [who, body] of messages) {
      const [m] = await q<{ id: string }>(
        `INSERT INTO direct_messages (conversation_id, sender_id, body) VALUES ($1, $2, $3) RETURNING id`,
        [conv.id, (who === 0 ? a : b).id, body],
      );
      ids.push(m.id);
    }
    return ids;
  }

  const report = (u: User, body: Record<string, unknown>) =>
    http.post("/api/reports", { reason: "spam", ...body }, { cookie: u.cookie });

  const notices = (u: User, type?: string) =>
    q<{ type: string; title: string; body: string; actor_id: string | null; data: Record<string, unknown> }>(
      `SELECT type, title, body, actor_id, data FROM notifications WHERE user_id = $1 ${type ? "AND type = $2" : ""}
        ORDER BY created_at`,
      type ? [u.id, type] : [u.id],
    );

  const queue = (communityId: string, u: User) =>
    http.get(`/api/communities/${communityId}/reports`, { cookie: u.cookie });

  const decide = (communityId: string, caseId: string, u: User, action: string, reason = "") =>
    http.post(`/api/communities/${communityId}/reports/${caseId}/decide`, { action, reason }, { cookie: u.cookie });

  const caseOf = async (targetId: string) =>
    (
      await q<{ id: string; status: string; report_count: number }>(
        `SELECT id, status, report_count FROM report_cases WHERE target_id = $1 ORDER BY created_at DESC LIMIT 1`,
        [targetId],
      )
    )[0];

  return { http, q, community, join, post, comment, conversation, report, notices, queue, decide, caseOf };
}
