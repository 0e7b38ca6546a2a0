import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

describe("leaderboards", () => {
  it("rank members by likes received on posts and comments, per period, with the viewer's rank", async () => {
    const owner = await signedInUser(t);
    const [a, b, c, fan] = await Promise.all([signedInUser(t), signedInUser(t), signedInUser(t), signedInUser(t)]);
    const com = (await http.post("/api/communities", { name: "Ranks" }, { cookie: owner.cookie })).body;
    for (const u of [a, b, c, fan]) await http.post(`/api/communities/${com.id}/join`, {}, { cookie: u.cookie });
    const postBy = async (u: typeof a) =>
      (await http.post(`/api/communities/${com.id}/posts`, { content: "x" }, { cookie: u.cookie })).body.id as string;
    const pa = await postBy(a);
    const pb = await postBy(b);
    // a: 2 post likes + 1 comment like; b: 1 post like; own likes never count.
    for (const u of [fan, owner, a]) await http.post(`/api/posts/${pa}/like`, {}, { cookie: u.cookie });
    await http.post(`/api/posts/${pb}/like`, {}, { cookie: fan.cookie });
    const comment = (await http.post(`/api/posts/${pb}/comments`, { content: "nice" }, { cookie: a.cookie })).body;
    await http.post(`/api/comments/${comment.id}/like`, {}, { cookie: b.cookie });
    // An old like counts for all time only.
    await t.database.pool.query(
      `UPDATE post_likes SET created_at = now() - interval '20 days' WHERE post_id = $1 AND user_id = $2`,
      [pb, fan.id],
    );

    const all = await http.get(`/api/communities/${com.id}/leaderboard?period=all`, { cookie: c.cookie });
    expect(all.status).toBe(200);
    expect(
      all.body.items.map((r: { user_id: string; points: number; rank: number }) => [r.user_id, r.points, r.rank]),
    ).toEqual([
      [a.id, 3, 1],
      [b.id, 1, 2],
    ]);
    expect(all.body.viewer).toBeNull();
    const week = await http.get(`/api/communities/${com.id}/leaderboard?period=7d`, { cookie: b.cookie });
    expect(week.body.items.map((r: { user_id: string }) => r.user_id)).toEqual([a.id]);
    expect(week.body.viewer).toBeNull();
    const mine = await http.get(`/api/communities/${com.id}/leaderboard?period=30d&limit=1`, { cookie: b.cookie });
    expect(mine.body.items).toHaveLength(1);
    expect(mine.body.viewer).toMatchObject({ user_id: b.id, points: 1, rank: 2 });
    expect((await http.get(`/api/communities/${com.id}/leaderboard?period=year`)).status).toBe(400);
  });
});
