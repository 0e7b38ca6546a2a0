/**
 * A small, complete world for the security suite: two communities with posts, a poll, comments,
 * categories, a course with a module and a lesson, and users in every role, all made through the
 * HTTP API as a browser would (memberships by SQL only where the API has no door for them).
 */
import { expect } from "vitest";
import { api, signedInUser, type TestApp } from "#server/test/harness";

export type User = Awaited<ReturnType<typeof signedInUser>>;

export type Space = {
  id: string;
  slug: string;
  inviteCode: string;
  categoryId: string;
  postId: string;
  pollId: string;
  commentId: string;
  courseId: string;
  moduleId: string;
  lessonId: string;
};

export type World = {
  owner: User;
  admin: User;
  moderator: User;
  member: User;
  outsider: User;
  /** Owner of community B, a stranger to community A. */
  ownerB: User;
  a: Space;
  b: Space;
};

export const YT = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";

/** A status check that prints the body when it fails. */
export function ok<T extends { status: number; body: unknown }>(res: T, status = 200): T {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res;
}

export async function addRole(t: TestApp, communityId: string, userId: string, role: string) {
  await t.database.pool.query(
    `INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (community_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
    [communityId, userId, role],
  );
  await t.database.pool.query(
    `UPDATE communities SET member_count = (SELECT count(*) FROM community_members WHERE community_id = $1) WHERE id = $1`,
    [communityId],
  );
}

/** A community owned by `owner` with one of everything, written through the API. */
export async function makeSpace(t: TestApp, owner: User, name: string, author: User = owner): Promise<Space> {
  const http = api(t.app);
  const c = ok(await http.post("/api/communities", { name }, { cookie: owner.cookie }), 201).body as {
    id: string;
    slug: string;
  };
  const cats = ok(
    await http.put(
      `/api/communities/${c.id}/categories`,
      { categories: [{ name: "General", emoji: "" }] },
      { cookie: owner.cookie },
    ),
  ).body;
  const categoryId = (Array.isArray(cats) ? cats : cats.categories)[0].id as string;
  const view = ok(await http.get(`/api/communities/${c.id}`, { cookie: owner.cookie })).body;
  const post = ok(
    await http.post(
      `/api/communities/${c.id}/posts`,
      { content: `Hello from ${name}`, category_id: categoryId },
      { cookie: author.cookie },
    ),
    201,
  ).body;
  const poll = ok(
    await http.post(
      `/api/communities/${c.id}/posts`,
      { type: "poll", content: "Which?", poll: { options: ["One", "Two"], duration_hours: 0 } },
      { cookie: author.cookie },
    ),
    201,
  ).body;
  const comment = ok(
    await http.post(`/api/posts/${post.id}/comments`, { content: "A comment" }, { cookie: author.cookie }),
    201,
  ).body;
  const course = ok(
    await http.post(
      `/api/communities/${c.id}/courses`,
      { title: `${name} course`, description: "About it" },
      { cookie: owner.cookie },
    ),
    201,
  ).body;
  const moduleId = course.modules[0].id as string;
  const withLesson = ok(
    await http.post(
      `/api/modules/${moduleId}/lessons`,
      { title: "Lesson one", video_url: YT },
      { cookie: owner.cookie },
    ),
    201,
  ).body;
  return {
    id: c.id,
    slug: c.slug,
    inviteCode: view.invite_code ?? view.community?.invite_code,
    categoryId,
    postId: post.id,
    pollId: poll.id,
    commentId: comment.id,
    courseId: course.course.id,
    moduleId,
    lessonId: withLesson.modules[0].lessons[0].id,
  };
}

export async function makeWorld(t: TestApp): Promise<World> {
  const [owner, admin, moderator, member, outsider, ownerB] = await Promise.all(
    ["Owner", "Admin", "Moderator", "Member", "Outsider", "Owner B"].map((name) => signedInUser(t, { name })),
  );
  const a = await makeSpace(t, owner, `Alpha ${Date.now().toString(36)}`);
  await addRole(t, a.id, admin.id, "admin");
  await addRole(t, a.id, moderator.id, "moderator");
  await addRole(t, a.id, member.id, "member");
  const b = await makeSpace(t, ownerB, `Beta ${Date.now().toString(36)}`);
  return { owner, admin, moderator, member, outsider, ownerB, a, b };
}

/**
 * A digest of every row of every table, so a test can show that a batch of refused requests
 * changed nothing at all. Columns that a read legitimately touches are left out (members'
 * last-activity time, which the community page refreshes at most once a minute).
 */
export async function databaseFingerprint(t: TestApp): Promise<Record<string, string>> {
  const tables = (
    await t.database.pool.query<{ name: string }>(
      `SELECT quote_ident(table_name) AS name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    )
  ).rows.map((r) => r.name);
  const out: Record<string, string> = {};
  for (const table of tables) {
    const { rows } = await t.database.pool.query<{ digest: string | null; n: number }>(
      `SELECT count(*)::int AS n, md5(string_agg(r, '|' ORDER BY r)) AS digest
         FROM (SELECT (to_jsonb(x) - 'last_active_at')::text AS r FROM ${table} x) rows`,
    );
    out[table] = `${rows[0].n}:${rows[0].digest ?? "-"}`;
  }
  return out;
}
