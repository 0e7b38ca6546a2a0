import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LEVEL_THRESHOLDS, levelOf } from "#shared/levels";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";

// Levels seen everywhere (issue 20): the author card of a post (feed and post page), of a comment,
// the members list and the profile carry the person's level in the community, 1 without points.

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signedInUser>>;

async function community(owner: User) {
  const name = `Levels ${Date.now().toString(36)}`;
  const res = await http.post("/api/communities", { name }, { cookie: owner.cookie });
  expect(res.status).toBe(201);
  return { ...(res.body as { id: string; slug: string }), name };
}
const join = async (c: { id: string }, u: User) =>
  expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: u.cookie })).status).toBe(200);

/** Gives `u` points in `c` as the points triggers would (the level the default thresholds make). */
async function setPoints(c: { id: string }, u: User, points: number) {
  await t.database.pool.query(
    `INSERT INTO member_points (community_id, user_id, like_points, points, level, top_level)
     VALUES ($1, $2, $3, $3, $4, $4)
     ON CONFLICT (community_id, user_id) DO UPDATE SET like_points = $3, points = $3, level = $4, top_level = $4`,
    [c.id, u.id, points, levelOf(points, DEFAULT_LEVEL_THRESHOLDS)],
  );
}

/** A community with a level-4 member (70 points) and an owner without points, each with a post and a comment. */
async function world() {
  const owner = await signedInUser(t);
  const member = await signedInUser(t);
  const c = await community(owner);
  await join(c, member);
  await setPoints(c, member, 70);
  const byMember = await http.post(
    `/api/communities/${c.id}/posts`,
    { content: "From a member" },
    { cookie: member.cookie },
  );
  const byOwner = await http.post(
    `/api/communities/${c.id}/posts`,
    { content: "From the owner" },
    { cookie: owner.cookie },
  );
  expect(byMember.status).toBe(201);
  expect(byOwner.status).toBe(201);
  return { owner, member, c, memberPost: byMember.body as { id: string }, ownerPost: byOwner.body as { id: string } };
}

describe("levels on cards", () => {
  it("posts in the feed, on the post page and as created carry their author's level here", async () => {
    const { owner, member, c, memberPost, ownerPost } = await world();
    expect(levelOf(70)).toBe(4);
    const feed = await http.get(`/api/communities/${c.id}/posts`, { cookie: owner.cookie });
    expect(feed.status).toBe(200);
    const byId = new Map((feed.body.items as { id: string; author: { level: number } }[]).map((p) => [p.id, p]));
    expect(byId.get(memberPost.id)?.author.level).toBe(4);
    expect(byId.get(ownerPost.id)?.author.level).toBe(1);
    const page = await http.get(`/api/posts/${memberPost.id}`, { cookie: member.cookie });
    expect(page.body.post.author.level).toBe(4);
    // The level is the one in this community: points elsewhere do not count.
    const other = await community(member);
    await setPoints(other, owner, 600);
    const again = await http.get(`/api/posts/${ownerPost.id}`, { cookie: owner.cookie });
    expect(again.body.post.author.level).toBe(1);
  });

  it("the anonymous feed of a public community carries levels too", async () => {
    const { c, memberPost } = await world();
    const feed = await http.get(`/api/communities/${c.id}/posts`);
    expect(feed.status).toBe(200);
    const p = (feed.body.items as { id: string; author: { level: number } }[]).find((i) => i.id === memberPost.id);
    expect(p?.author.level).toBe(4);
  });

  it("likes that raise the author's level show on their post, also in the shared anonymous feed", async () => {
    const { member, c, memberPost } = await world();
    await setPoints(c, member, 0);
    const anonymousLevel = async () =>
      (
        (await http.get(`/api/communities/${c.id}/posts`)).body.items as { id: string; author: { level: number } }[]
      ).find((p) => p.id === memberPost.id)?.author.level;
    expect(await anonymousLevel()).toBe(1);
    const likers = await Promise.all(Array.from({ length: 5 }, () => signedInUser(t)));
    for (const u of likers) {
      await join(c, u);
      expect((await http.post(`/api/posts/${memberPost.id}/like`, {}, { cookie: u.cookie })).status).toBe(200);
    }
    // 5 likes reach level 2; the cached page is dropped when the database announces the change.
    const deadline = Date.now() + 10_000;
    let level = await anonymousLevel();
    while (level !== 2 && Date.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve));
      level = await anonymousLevel();
    }
    expect(level).toBe(2);
    const page = await http.get(`/api/posts/${memberPost.id}`, { cookie: member.cookie });
    expect(page.body.post.author.level).toBe(2);
  });

  it("comments, listed and just written, carry their author's level", async () => {
    const { owner, member, ownerPost } = await world();
    const created = await http.post(
      `/api/posts/${ownerPost.id}/comments`,
      { content: "Nice" },
      { cookie: member.cookie },
    );
    expect(created.status).toBe(201);
    expect(created.body.author.level).toBe(4);
    const mine = await http.post(
      `/api/posts/${ownerPost.id}/comments`,
      { content: "Thanks" },
      { cookie: owner.cookie },
    );
    expect(mine.body.author.level).toBe(1);
    const list = await http.get(`/api/posts/${ownerPost.id}/comments`, { cookie: owner.cookie });
    const levels = Object.fromEntries(
      (list.body as { author: { user_id: string; level: number } }[]).map((x) => [x.author.user_id, x.author.level]),
    );
    expect(levels).toEqual({ [member.id]: 4, [owner.id]: 1 });
  });

  it("the members list shows each member's level", async () => {
    const { owner, member, c } = await world();
    await setPoints(c, owner, 2015);
    const res = await http.get(`/api/communities/${c.id}/members`, { cookie: member.cookie });
    expect(res.status).toBe(200);
    const levels = Object.fromEntries(
      (res.body.items as { user_id: string; level: number }[]).map((m) => [m.user_id, m.level]),
    );
    // 2015 is exactly level 7's threshold.
    expect(levels).toEqual({ [owner.id]: 7, [member.id]: 4 });
  });

  it("a profile shows the person's level in the communities the viewer shares with them, none when signed out", async () => {
    const { owner, member, c } = await world();
    const stranger = await signedInUser(t);
    const shared = await http.get(`/api/profiles/${member.username}`, { cookie: owner.cookie });
    expect(shared.status).toBe(200);
    expect(shared.body.levels).toEqual([
      { community_id: c.id, community_name: c.name, slug: c.slug, level: 4, level_name: "Level 4" },
    ]);
    const names = ["New", "Regular", "Helper", "Star", "Five", "Six", "Seven", "Eight", "Legend"];
    await t.database.pool.query(`UPDATE communities SET level_names = $2 WHERE id = $1`, [c.id, names]);
    const named = await http.get(`/api/profiles/${member.username}`, { cookie: owner.cookie });
    expect(named.body.levels[0].level_name).toBe("Star");
    expect((await http.get(`/api/profiles/${member.username}`, { cookie: stranger.cookie })).body.levels).toEqual([]);
    expect((await http.get(`/api/profiles/${member.username}`)).body.levels).toEqual([]);
  });
});
