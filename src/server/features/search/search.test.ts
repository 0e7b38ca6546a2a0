import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchResponse, SearchResult } from "#shared/search.schemas";
import { createTestApp, type TestApp } from "#server/test/harness";
import { groupOf, ids, searchFixtures } from "./search.test-helpers";

/*
 * Who finds what: a public and a private community holding every kind of content in every state
 * (members-only, admins-only, pending, hidden, deleted posts and comments; published, draft, sold and
 * level-locked courses and their lessons), searched by every kind of viewer in the community's search
 * and across communities. Every result must open through its own API, and the expected sets are
 * written out per viewer.
 */

let t: TestApp;
let f: ReturnType<typeof searchFixtures>;
type User = Awaited<ReturnType<ReturnType<typeof searchFixtures>["user"]>>;
const WORD = "quokka";
let users: Record<"owner" | "admin" | "mod" | "member" | "guest" | "nonmember" | "banned" | "removed", User>;
type World = {
  c: { id: string; slug: string };
  posts: Record<"pub" | "members" | "admins" | "pending" | "hidden" | "deleted" | "ownPending" | "ownHidden", string>;
  comments: Record<"onPub" | "onAdmins" | "onPending" | "hidden" | "deleted" | "ownHidden", string>;
  courses: Record<"open" | "draft" | "sold" | "level", string>;
  lessons: Record<"open" | "draft" | "sold" | "soldPreview" | "level" | "soldBody", string>;
};
const worlds: Record<"pub" | "priv", World> = {} as never;

async function course(
  w: { id: string },
  title: string,
  body: Record<string, unknown>,
  lessons: { title: string; description?: string; is_preview?: boolean }[],
  publish = true,
) {
  const created = await f.http.post(
    `/api/communities/${w.id}/courses`,
    { title, description: `About ${title}`, ...body },
    { cookie: users.owner.cookie },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const made: string[] = [];
  for (const l of lessons) {
    const res = await f.http.post(
      `/api/modules/${created.body.modules[0].id}/lessons`,
      { video_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", ...l },
      { cookie: users.owner.cookie },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made.push(res.body.modules[0].lessons.at(-1).id as string);
  }
  if (publish)
    await f.http.patch(
      `/api/courses/${created.body.course.id}`,
      { status: "published" },
      { cookie: users.owner.cookie },
    );
  return { id: created.body.course.id as string, lessons: made };
}

async function world(priv: boolean): Promise<World> {
  const c = await f.community(users.owner, { private: priv, name: priv ? "Hidden" : "Open" });
  for (const [who, role] of [
    ["admin", "admin"],
    ["mod", "moderator"],
    ["member", "member"],
    ["guest", "guest"],
    ["banned", "member"],
    ["removed", "member"],
  ] as const)
    await f.addMember(c.id, users[who], role);
  const p = (u: User, text: string, extra = {}) => f.post(c.id, u, `${text} ${WORD}`, extra);
  const posts = {
    pub: await p(users.owner, "Public"),
    members: await p(users.owner, "Members", { visibility: "members" }),
    admins: await p(users.owner, "Admins", { visibility: "admins" }),
    pending: await p(users.mod, "Pending"),
    hidden: await p(users.mod, "Hidden"),
    deleted: await p(users.owner, "Deleted"),
    ownPending: await p(users.member, "Mine pending"),
    ownHidden: await p(users.member, "Mine hidden"),
  };
  const cm = (postId: string, u: User, text: string) => f.comment(postId, u, `${text} ${WORD}`);
  const comments = {
    onPub: await cm(posts.pub, users.mod, "On public"),
    onAdmins: await cm(posts.admins, users.owner, "On admins"),
    onPending: await cm(posts.pending, users.mod, "On pending"),
    hidden: await cm(posts.pub, users.mod, "Hidden comment"),
    deleted: await cm(posts.pub, users.mod, "Deleted comment"),
    ownHidden: await cm(posts.pub, users.member, "My hidden comment"),
  };
  await f.q(`UPDATE posts SET is_approved = false WHERE id = ANY($1)`, [[posts.pending, posts.ownPending]]);
  await f.q(`UPDATE posts SET hidden_at = now() WHERE id = ANY($1)`, [[posts.hidden, posts.ownHidden]]);
  await f.q(`UPDATE comments SET hidden_at = now() WHERE id = ANY($1)`, [[comments.hidden, comments.ownHidden]]);
  expect((await f.http.delete(`/api/posts/${posts.deleted}`, { cookie: users.owner.cookie })).status).toBeLessThan(300);
  expect((await f.http.delete(`/api/comments/${comments.deleted}`, { cookie: users.mod.cookie })).status).toBeLessThan(
    300,
  );
  const open = await course(c, `Open ${WORD} course`, {}, [{ title: `Open ${WORD} lesson` }]);
  const draft = await course(c, `Draft ${WORD} course`, {}, [{ title: `Draft ${WORD} lesson` }], false);
  const sold = await course(c, `Sold ${WORD} course`, { price: 20 }, [
    { title: `Sold ${WORD} lesson` },
    { title: `Sold preview ${WORD}`, is_preview: true },
    { title: "Sold secret", description: `The body says ${WORD}` },
  ]);
  const level = await course(c, `Level ${WORD} course`, { access: "level", unlock_level: 5 }, [
    { title: `Level ${WORD} lesson` },
  ]);
  // Removed and banned after everything was written: they stop finding the community at once.
  expect(
    (await f.http.post(`/api/communities/${c.id}/bans`, { user_id: users.banned.id }, { cookie: users.owner.cookie }))
      .status,
  ).toBe(204);
  expect(
    (await f.http.delete(`/api/communities/${c.id}/members/${users.removed.id}`, { cookie: users.owner.cookie }))
      .status,
  ).toBeLessThan(300);
  return {
    c,
    posts,
    comments,
    courses: { open: open.id, draft: draft.id, sold: sold.id, level: level.id },
    lessons: {
      open: open.lessons[0],
      draft: draft.lessons[0],
      sold: sold.lessons[0],
      soldPreview: sold.lessons[1],
      soldBody: sold.lessons[2],
      level: level.lessons[0],
    },
  };
}

beforeAll(async () => {
  t = await createTestApp();
  f = searchFixtures(t);
  const names = ["owner", "admin", "mod", "member", "guest", "nonmember", "banned", "removed"] as const;
  users = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await f.user()]))) as typeof users;
  worlds.pub = await world(false);
  worlds.priv = await world(true);
}, 120_000);
afterAll(() => t.close());

type Viewer = keyof typeof users | "anon";
const cookieOf = (v: Viewer) => (v === "anon" ? null : users[v]);

/** Each result opens through its normal API (and a lesson is locked exactly when the course page says so). */
async function opens(r: SearchResult, v: Viewer) {
  const cookie = cookieOf(v)?.cookie;
  const get = (url: string) => f.http.get(url, { cookie });
  if (r.kind === "post") expect((await get(`/api/posts/${r.id}`)).status, `${v} opens post`).toBe(200);
  if (r.kind === "comment") {
    const postId = r.href.split("/post/")[1].split("#")[0];
    const res = await get(`/api/posts/${postId}/comments`);
    expect(res.status, `${v} opens comment`).toBe(200);
    expect(JSON.stringify(res.body)).toContain(r.id);
  }
  if (r.kind === "course" || r.kind === "lesson") {
    const courseId = r.href.split("/course/")[1].split("?")[0];
    const res = await get(`/api/courses/${courseId}`);
    expect(res.status, `${v} opens ${r.kind}`).toBe(200);
    if (r.kind === "lesson") {
      const lesson = (res.body.modules as { lessons: { id: string; locked: boolean }[] }[])
        .flatMap((m) => m.lessons)
        .find((l) => l.id === r.id);
      expect(lesson?.locked, `${v} lesson lock`).toBe(r.locked);
      if (r.locked) expect(r.snippet.text).toBe("");
    }
  }
  if (r.kind === "member") {
    const res = await get(`/api/communities/${r.community.id}/members`);
    expect(res.status, `${v} opens member`).toBe(200);
    expect(JSON.stringify(res.body)).toContain(r.id);
  }
}

async function everything(v: Viewer, scope: "pub" | "priv" | "all") {
  const found: SearchResponse["groups"] = [];
  for (const kind of ["post", "comment", "lesson", "course", "member"]) {
    const params = { q: WORD, kind, limit: "50" };
    const res =
      scope === "all"
        ? await f.globalSearch(params, cookieOf(v))
        : await f.communitySearch(worlds[scope].c.id, params, cookieOf(v));
    if (res.status === 404) return null;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    found.push(...res.body.groups);
  }
  return { q: WORD, groups: found } satisfies SearchResponse;
}

const VIEWERS: Viewer[] = ["anon", "nonmember", "banned", "removed", "guest", "member", "mod", "admin", "owner"];

describe("the search matrix", () => {
  it.each(VIEWERS)("%s: every result opens, in each community and across them", async (v) => {
    for (const scope of ["pub", "priv", "all"] as const) {
      const body = await everything(v, scope);
      if (!body) continue;
      for (const g of body.groups) for (const r of g.results) await opens(r, v);
    }
  });

  it.each(VIEWERS)("%s: the expected posts and comments", async (v) => {
    const inside = ["guest", "member", "mod", "admin", "owner"].includes(v);
    const staff = v === "admin" || v === "owner";
    for (const key of ["pub", "priv"] as const) {
      const w = worlds[key];
      const body = await everything(v, "all");
      const posts = ids(body!, "post");
      const comments = ids(body!, "comment");
      const sees = key === "pub" || inside;
      const expectPosts = [
        ...(sees ? [w.posts.pub] : []),
        ...(sees && inside ? [w.posts.members] : []),
        ...(sees && staff ? [w.posts.admins] : []),
        ...(v === "mod" ? [w.posts.pending, w.posts.hidden] : []),
        ...(v === "member" ? [w.posts.ownPending, w.posts.ownHidden] : []),
      ];
      const mine = posts.filter((id) => Object.values(w.posts).includes(id));
      expect(mine.sort(), `${v} posts in ${key}`).toEqual(expectPosts.sort());
      const expectComments = [
        ...(sees ? [w.comments.onPub] : []),
        ...(sees && staff ? [w.comments.onAdmins] : []),
        ...(v === "mod" ? [w.comments.onPending, w.comments.hidden] : []),
        ...(v === "member" ? [w.comments.ownHidden] : []),
      ];
      const mineC = comments.filter((id) => Object.values(w.comments).includes(id));
      expect(mineC.sort(), `${v} comments in ${key}`).toEqual(expectComments.sort());
      const own = await f.communitySearch(w.c.id, { q: WORD, kind: "post", limit: "50" }, cookieOf(v));
      if (sees) expect(ids(own.body, "post").sort()).toEqual(expectPosts.sort());
      else expect(own.status).toBe(404);
    }
  });

  it("a private community's search answers outsiders like the community routes do", async () => {
    for (const v of ["anon", "nonmember", "banned", "removed"] as const) {
      const search = await f.communitySearch(worlds.priv.c.id, { q: WORD }, cookieOf(v));
      const page = await f.http.get(`/api/communities/${worlds.priv.c.id}/posts`, { cookie: cookieOf(v)?.cookie });
      expect(search.status).toBe(404);
      expect(search.body).toEqual(page.body);
    }
  });
});

describe("courses and lessons", () => {
  it.each(["anon", "member", "owner"] as const)("%s: locked lessons by title only, drafts for staff", async (v) => {
    const w = worlds.pub;
    const body = (await f.communitySearch(w.c.id, { q: WORD, kind: "lesson", limit: "50" }, cookieOf(v))).body;
    const lessons = groupOf(body, "lesson").results;
    const byId = Object.fromEntries(lessons.map((r) => [r.id, r]));
    const staff = v === "owner";
    expect(Object.keys(byId).sort()).toEqual(
      [
        w.lessons.open,
        w.lessons.sold,
        w.lessons.soldPreview,
        w.lessons.level,
        ...(staff ? [w.lessons.draft, w.lessons.soldBody] : []),
      ].sort(),
    );
    // Anonymous: every lesson is closed; a member: the open course and the preview only.
    const unlocked = lessons
      .filter((r) => !r.locked)
      .map((r) => r.id)
      .sort();
    if (v === "anon") expect(unlocked).toEqual([]);
    if (v === "member") expect(unlocked).toEqual([w.lessons.open, w.lessons.soldPreview].sort());
    for (const r of lessons) if (r.locked) expect(r.snippet).toEqual({ text: "", highlights: [] });
    const courses = ids((await f.communitySearch(w.c.id, { q: WORD, kind: "course" }, cookieOf(v))).body, "course");
    expect(courses.includes(w.courses.draft)).toBe(staff);
    expect(courses).toContain(w.courses.sold);
  });

  it("a buyer finds the sold lesson's body", async () => {
    const w = worlds.pub;
    const before = ids(
      (await f.communitySearch(w.c.id, { q: "body says", kind: "lesson" }, users.member)).body,
      "lesson",
    );
    expect(before).toEqual([]);
    await f.q(
      `INSERT INTO entitlements (user_id, provider, kind, course_id, community_id, status, currency, interval) VALUES ($1, 'simulated', 'course', $2, $3, 'active', 'usd', 'once')`,
      [users.member.id, w.courses.sold, w.c.id],
    );
    const after = (await f.communitySearch(w.c.id, { q: "body says", kind: "lesson" }, users.member)).body;
    expect(ids(after, "lesson")).toEqual([w.lessons.soldBody]);
    expect(groupOf(after, "lesson").results[0].locked).toBe(false);
    await opens(groupOf(after, "lesson").results[0], "member");
  });
});

describe("members", () => {
  it("members find members of their communities; others find none", async () => {
    const named = await f.user({ name: "Wombat Keeper" });
    await f.addMember(worlds.priv.c.id, named);
    await f.q(`UPDATE user_profiles SET headline = 'Loves marsupials' WHERE user_id = $1`, [named.id]);
    for (const q of ["wombat", "marsupial", named.username]) {
      const res = await f.communitySearch(worlds.priv.c.id, { q, kind: "member" }, users.member);
      expect(ids(res.body, "member"), q).toEqual([named.id]);
      expect(groupOf(res.body, "member").results[0].href).toBe(`/u/${named.username}`);
      expect(ids((await f.globalSearch({ q, kind: "member" }, users.guest)).body, "member")).toEqual([named.id]);
    }
    for (const v of ["anon", "nonmember", "banned", "removed"] as const)
      expect(ids((await f.globalSearch({ q: "wombat", kind: "member" }, cookieOf(v))).body, "member"), v).toEqual([]);
    // Members of a public community they are not in: not listed either (the members list is for members).
    expect(
      ids((await f.communitySearch(worlds.pub.c.id, { q: "wombat", kind: "member" }, users.nonmember)).body, "member"),
    ).toEqual([]);
  });

  it("leaving stops finding a private community's content at once", async () => {
    const leaver = await f.user();
    await f.addMember(worlds.priv.c.id, leaver);
    expect(ids((await f.globalSearch({ q: WORD, kind: "post" }, leaver)).body, "post")).toContain(
      worlds.priv.posts.pub,
    );
    expect(
      (await f.http.post(`/api/communities/${worlds.priv.c.id}/leave`, {}, { cookie: leaver.cookie })).status,
    ).toBe(200);
    expect(ids((await f.globalSearch({ q: WORD, kind: "post" }, leaver)).body, "post")).not.toContain(
      worlds.priv.posts.pub,
    );
  });
});
