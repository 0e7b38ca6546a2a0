/**
 * A8: identifiers of community A used under community B. The owner of B — allowed everything in
 * B — sends A's members, bans, categories, comments, courses, modules, lessons and media through
 * B's paths and bodies. Each is answered as if the id did not exist (404, or 400 for a body that
 * names something that is not B's), and nothing anywhere changes. Then the owner of B acts on A's
 * own rows by id: refused, no change.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { addRole, databaseFingerprint, makeWorld, ok, YT, type User, type World } from "./world";

let t: TestApp;
let h: ReturnType<typeof api>;
let w: World;
let banned: User;
beforeAll(async () => {
  t = await createTestApp();
  h = api(t.app);
  w = await makeWorld(t);
  banned = await signedInUser(t, { name: "Banned in A" });
  await addRole(t, w.a.id, banned.id, "member");
  ok(
    await h.post(`/api/communities/${w.a.id}/bans`, { user_id: banned.id, reason: "spam" }, { cookie: w.owner.cookie }),
    204,
  );
});
afterAll(() => t.close());

type Attempt = {
  label: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  body?: unknown;
  ok: number[];
};

/** A's ids under B's paths and in B's bodies, sent by B's owner. */
function underB(): Attempt[] {
  const a = w.a;
  const b = w.b;
  const aMedia = `/media/community-assets/${a.id}/posts/00000000-0000-4000-8000-000000000000.webp`;
  const aVideo = `/media/community-assets/${a.id}/courses/00000000-0000-4000-8000-000000000000.mp4`;
  return [
    {
      label: "change the role of A's member",
      method: "PATCH",
      url: `/api/communities/${b.id}/members/${w.member.id}`,
      body: { role: "moderator" },
      ok: [404],
    },
    { label: "remove A's member", method: "DELETE", url: `/api/communities/${b.id}/members/${w.member.id}`, ok: [404] },
    { label: "remove A's owner", method: "DELETE", url: `/api/communities/${b.id}/members/${w.owner.id}`, ok: [404] },
    // Lifting a ban is idempotent (204 when B has none); it is scoped to B, so A's ban stays.
    { label: "lift A's ban", method: "DELETE", url: `/api/communities/${b.id}/bans/${banned.id}`, ok: [204, 404] },
    {
      label: "take over A's category",
      method: "PUT",
      url: `/api/communities/${b.id}/categories`,
      body: { categories: [{ id: a.categoryId, name: "Hijacked", emoji: "" }] },
      ok: [400, 404],
    },
    {
      label: "post into A's category",
      method: "POST",
      url: `/api/communities/${b.id}/posts`,
      body: { content: "x", category_id: a.categoryId },
      ok: [400, 404],
    },
    {
      label: "move B's post into A's category",
      method: "PATCH",
      url: `/api/posts/${b.postId}`,
      body: { category_id: a.categoryId },
      ok: [400, 404],
    },
    {
      label: "reply under A's comment",
      method: "POST",
      url: `/api/posts/${b.postId}/comments`,
      body: { content: "x", parent_id: a.commentId },
      ok: [400, 404],
    },
    {
      label: "post A's uploaded image",
      method: "POST",
      url: `/api/communities/${b.id}/posts`,
      body: { type: "image", content: "x", images: [{ url: aMedia }] },
      ok: [400, 404],
    },
    {
      label: "post A's uploaded video",
      method: "POST",
      url: `/api/communities/${b.id}/posts`,
      body: { type: "video", content: "x", video_url: aVideo },
      ok: [400, 404],
    },
    {
      label: "order A's course among B's",
      method: "PUT",
      url: `/api/communities/${b.id}/courses/order`,
      body: { ids: [a.courseId, b.courseId] },
      ok: [400, 404],
    },
    {
      label: "order only A's course",
      method: "PUT",
      url: `/api/communities/${b.id}/courses/order`,
      body: { ids: [a.courseId] },
      ok: [400, 404],
    },
    {
      label: "order A's module among B's",
      method: "PUT",
      url: `/api/courses/${b.courseId}/modules/order`,
      body: { ids: [a.moduleId, b.moduleId] },
      ok: [400, 404],
    },
    {
      label: "order A's lesson among B's",
      method: "PUT",
      url: `/api/modules/${b.moduleId}/lessons/order`,
      body: { ids: [a.lessonId, b.lessonId] },
      ok: [400, 404],
    },
    {
      label: "move B's lesson into A's module",
      method: "PATCH",
      url: `/api/lessons/${b.lessonId}`,
      body: { module_id: a.moduleId },
      ok: [400, 404],
    },
    {
      label: "course with A's thumbnail",
      method: "POST",
      url: `/api/communities/${b.id}/courses`,
      body: { title: "x", description: "x", thumbnail_url: `/media/community-assets/${a.id}/courses/x.webp` },
      ok: [400, 404],
    },
    {
      label: "lesson with A's video",
      method: "POST",
      url: `/api/modules/${b.moduleId}/lessons`,
      body: { title: "x", video_url: aVideo },
      ok: [400, 404],
    },
    {
      label: "lesson with A's file as a resource",
      method: "POST",
      url: `/api/modules/${b.moduleId}/lessons`,
      body: { title: "x", video_url: YT, resources: [{ title: "r", url: aMedia }] },
      ok: [400, 404],
    },
    {
      label: "read A's posts through B's feed",
      method: "GET",
      url: `/api/communities/${b.id}/posts?category=${a.categoryId}`,
      ok: [200, 400, 404],
    },
  ];
}

/** A's own rows by id, by someone who manages only B. */
function onA(): Attempt[] {
  const a = w.a;
  return [
    {
      label: "pin A's post",
      method: "POST",
      url: `/api/posts/${a.postId}/pin`,
      body: { pinned: true },
      ok: [403, 404],
    },
    {
      label: "warn about A's post",
      method: "POST",
      url: `/api/posts/${a.postId}/warn`,
      body: { reason: "x" },
      ok: [403, 404],
    },
    { label: "delete A's post", method: "DELETE", url: `/api/posts/${a.postId}`, ok: [403, 404] },
    { label: "delete A's comment", method: "DELETE", url: `/api/comments/${a.commentId}`, ok: [403, 404] },
    {
      label: "edit A's course",
      method: "PATCH",
      url: `/api/courses/${a.courseId}`,
      body: { title: "Hijacked" },
      ok: [403, 404],
    },
    {
      label: "edit A's module",
      method: "PATCH",
      url: `/api/modules/${a.moduleId}`,
      body: { title: "Hijacked" },
      ok: [403, 404],
    },
    {
      label: "edit A's lesson",
      method: "PATCH",
      url: `/api/lessons/${a.lessonId}`,
      body: { title: "Hijacked" },
      ok: [403, 404],
    },
    {
      label: "move A's lesson into B's module",
      method: "PATCH",
      url: `/api/lessons/${a.lessonId}`,
      body: { module_id: w.b.moduleId },
      ok: [403, 404],
    },
    { label: "delete A's lesson", method: "DELETE", url: `/api/lessons/${a.lessonId}`, ok: [403, 404] },
    {
      label: "add a lesson to A's module",
      method: "POST",
      url: `/api/modules/${a.moduleId}/lessons`,
      body: { title: "x", video_url: YT },
      ok: [403, 404],
    },
    {
      label: "regenerate A's invite",
      method: "POST",
      url: `/api/communities/${a.id}/invite/regenerate`,
      ok: [403, 404],
    },
    {
      label: "change A's categories",
      method: "PUT",
      url: `/api/communities/${a.id}/categories`,
      body: { categories: [] },
      ok: [403, 404],
    },
  ];
}

async function attempt(list: Attempt[]) {
  const wrong: string[] = [];
  for (const x of list) {
    const res =
      x.method === "GET" || x.method === "DELETE"
        ? await h[x.method === "GET" ? "get" : "delete"](x.url, { cookie: w.ownerB.cookie })
        : await h[x.method.toLowerCase() as "post" | "put" | "patch"](x.url, x.body ?? {}, { cookie: w.ownerB.cookie });
    if (!x.ok.includes(res.status)) wrong.push(`${x.label}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
    if (x.method === "GET" && res.status === 200) {
      const ids = (res.body.items as { id: string; community_id: string }[]).map((p) => p.community_id);
      if (ids.some((id) => id !== w.b.id)) wrong.push(`${x.label}: returned another community's posts`);
    }
  }
  return wrong;
}

describe("A8: community A's identifiers in community B", () => {
  it("under B's paths and in B's bodies: not found or refused, and nothing changes", async () => {
    const before = await databaseFingerprint(t);
    expect(await attempt(underB())).toEqual([]);
    expect(await databaseFingerprint(t)).toEqual(before);
  });

  it("acted on directly by B's owner: refused, and nothing changes", async () => {
    const before = await databaseFingerprint(t);
    expect(await attempt(onA())).toEqual([]);
    expect(await databaseFingerprint(t)).toEqual(before);
  });

  it("the same requests with B's own ids are accepted (the refusals above are about the ids)", async () => {
    const b = w.b;
    ok(
      await h.put(
        `/api/communities/${b.id}/categories`,
        { categories: [{ id: b.categoryId, name: "Renamed", emoji: "" }] },
        { cookie: w.ownerB.cookie },
      ),
    );
    ok(await h.patch(`/api/posts/${b.postId}`, { category_id: b.categoryId }, { cookie: w.ownerB.cookie }));
    ok(
      await h.post(
        `/api/posts/${b.postId}/comments`,
        { content: "x", parent_id: b.commentId },
        { cookie: w.ownerB.cookie },
      ),
      201,
    );
    ok(await h.put(`/api/communities/${b.id}/courses/order`, { ids: [b.courseId] }, { cookie: w.ownerB.cookie }));
    ok(await h.put(`/api/modules/${b.moduleId}/lessons/order`, { ids: [b.lessonId] }, { cookie: w.ownerB.cookie }));
    // A member of both communities is managed separately in each.
    ok(await h.post(`/api/communities/${b.id}/join`, {}, { cookie: w.member.cookie }));
    ok(
      await h.patch(
        `/api/communities/${b.id}/members/${w.member.id}`,
        { role: "moderator" },
        { cookie: w.ownerB.cookie },
      ),
    );
    const roles = (
      await t.database.pool.query(`SELECT community_id, role FROM community_members WHERE user_id = $1 ORDER BY role`, [
        w.member.id,
      ])
    ).rows;
    expect(roles).toEqual(
      expect.arrayContaining([
        { community_id: w.a.id, role: "member" },
        { community_id: b.id, role: "moderator" },
      ]),
    );
  });
});
