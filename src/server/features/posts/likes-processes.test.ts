import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HearthApp } from "#server/app";
import { Announcer } from "#server/lib/announcer";
import { api, createTestApp, readUntil, secondProcess, signedInUser, type TestApp } from "#server/test/harness";

let t: TestApp;
let other: HearthApp;
beforeAll(async () => {
  t = await createTestApp();
  other = await secondProcess(t);
});
afterAll(async () => {
  await other.close();
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;
type FeedItem = { id: string; liked: boolean; likes_count: number };

/** An owner's new community with one more member, and a post of the owner's in it. */
async function communityWithPost(post: Record<string, unknown>) {
  const a = api(t.app);
  const owner = await signedInUser(t);
  const member = await signedInUser(t);
  const c = (await a.post("/api/communities", { name: `Across ${Date.now().toString(36)}` }, { cookie: owner.cookie }))
    .body as { id: string };
  await a.post(`/api/communities/${c.id}/join`, {}, { cookie: member.cookie });
  const p = (await a.post(`/api/communities/${c.id}/posts`, post, { cookie: owner.cookie })).body as { id: string };
  return { a, b: api(other), owner, member, c, p };
}

describe("like toggles across processes (announced by the app, migration 0035)", () => {
  it("another process shows the reader's like, its count and the author's points, and its unlike", async () => {
    const { a, b, owner, member: reader, c, p } = await communityWithPost({ content: "Like me" });

    const item = async (u: User) =>
      ((await b.get(`/api/communities/${c.id}/posts`, { cookie: u.cookie })).body.items as FeedItem[]).find(
        (x) => x.id === p.id,
      );
    const points = async () =>
      (await b.get(`/api/communities/${c.id}/leaderboard?period=all`, { cookie: owner.cookie })).body.viewer_level
        .points as number;
    // The other process keeps both now.
    expect(await item(reader)).toMatchObject({ liked: false, likes_count: 0 });
    expect(await points()).toBe(0);

    expect((await a.post(`/api/posts/${p.id}/like`, {}, { cookie: reader.cookie })).body).toEqual({
      liked: true,
      likes_count: 1,
    });
    expect(
      await readUntil(
        () => item(reader),
        (x) => x?.liked === true,
      ),
    ).toMatchObject({ liked: true, likes_count: 1 });
    expect(await readUntil(points, (n) => n === 1)).toBe(1);

    expect((await a.post(`/api/posts/${p.id}/like`, {}, { cookie: reader.cookie })).body).toEqual({
      liked: false,
      likes_count: 0,
    });
    expect(
      await readUntil(
        () => item(reader),
        (x) => x?.liked === false,
      ),
    ).toMatchObject({
      liked: false,
      likes_count: 0,
    });
    expect(await readUntil(points, (n) => n === 0)).toBe(0);

    // The author heard of the first like once; the like again after the unlike makes no second one.
    await a.post(`/api/posts/${p.id}/like`, {}, { cookie: reader.cookie });
    const notes = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND type = 'post_like'`,
      [owner.id],
    );
    expect(notes.rows[0].n).toBe(1);
  });
});

describe("comment like toggles across processes (announced by the app, migration 0036)", () => {
  it("another process shows the comment author's points move with a member's like and unlike", async () => {
    const { a, b, owner, member, c, p } = await communityWithPost({ content: "Comment here" });
    const comment = (
      await a.post(`/api/posts/${p.id}/comments`, { content: "Like my comment" }, { cookie: member.cookie })
    ).body as { id: string };
    const points = async () =>
      (await b.get(`/api/communities/${c.id}/leaderboard?period=all`, { cookie: member.cookie })).body.viewer_level
        .points as number;
    // The other process keeps the author's points now.
    expect(await points()).toBe(0);
    expect((await a.post(`/api/comments/${comment.id}/like`, {}, { cookie: owner.cookie })).body).toEqual({
      liked: true,
      likes_count: 1,
    });
    expect(await readUntil(points, (n) => n === 1)).toBe(1);
    expect((await a.post(`/api/comments/${comment.id}/like`, {}, { cookie: owner.cookie })).body).toEqual({
      liked: false,
      likes_count: 0,
    });
    expect(await readUntil(points, (n) => n === 0)).toBe(0);
    // A comment gone meanwhile: 404, and nothing stored.
    const gone = (await a.post(`/api/posts/${p.id}/comments`, { content: "Going" }, { cookie: member.cookie }))
      .body as {
      id: string;
    };
    await t.database.pool.query(`DELETE FROM comments WHERE id = $1`, [gone.id]);
    expect((await a.post(`/api/comments/${gone.id}/like`, {}, { cookie: owner.cookie })).status).toBe(404);
    const likes = await t.database.pool.query(`SELECT count(*)::int AS n FROM comment_likes WHERE comment_id = $1`, [
      gone.id,
    ]);
    expect(likes.rows[0].n).toBe(0);
  });
});

describe("poll votes across processes (announced by the app)", () => {
  it("another process shows the voter's vote and the poll's counts", async () => {
    const {
      a,
      b,
      member: voter,
      c,
      p,
    } = await communityWithPost({
      type: "poll",
      content: "Which?",
      poll: { options: ["a", "b"] },
    });
    type PollItem = { id: string; user_vote_index: number | null; poll: { total_votes: number | null } };
    const item = async () =>
      ((await b.get(`/api/communities/${c.id}/posts`, { cookie: voter.cookie })).body.items as PollItem[]).find(
        (x) => x.id === p.id,
      );
    expect(await item()).toMatchObject({ user_vote_index: null });
    expect((await a.post(`/api/posts/${p.id}/vote`, { option_index: 1 }, { cookie: voter.cookie })).status).toBe(200);
    expect(await readUntil(item, (x) => x?.user_vote_index === 1)).toMatchObject({
      user_vote_index: 1,
      poll: { total_votes: 1 },
    });
    // Once only, in either process.
    expect((await b.post(`/api/posts/${p.id}/vote`, { option_index: 0 }, { cookie: voter.cookie })).status).toBe(409);
    const row = await t.database.pool.query(`SELECT poll_data FROM posts WHERE id = $1`, [p.id]);
    expect(row.rows[0].poll_data.options.map((o: { votes: number }) => o.votes)).toEqual([0, 1]);
    expect(row.rows[0].poll_data.total_votes).toBe(1);
  });
});

describe("Announcer", () => {
  it("sends what is announced meanwhile in one statement, each payload once, and every one arrives", async () => {
    const listen = new pg.Client({ connectionString: t.database.url });
    await listen.connect();
    const got: string[] = [];
    listen.on("notification", (n) => got.push(`${n.channel}|${n.payload}`));
    await listen.query("LISTEN hearth_test_a");
    await listen.query("LISTEN hearth_test_b");
    let statements = 0;
    const pool = {
      query: ((...args: Parameters<pg.Pool["query"]>) => {
        statements++;
        return (t.database.pool.query as (...a: unknown[]) => unknown)(...args);
      }) as pg.Pool["query"],
    };
    const announcer = new Announcer(pool, { warn: () => {} });
    for (let i = 0; i < 300; i++) announcer.announce(i % 2 ? "hearth_test_a" : "hearth_test_b", `p${i % 150}`);
    await announcer.flush();
    expect(statements).toBe(1);
    const want = Array.from({ length: 150 }, (_, i) => `${i % 2 ? "hearth_test_a" : "hearth_test_b"}|p${i}`).sort();
    const arrived = await readUntil(
      async () => [...got].sort(),
      (x) => x.length >= want.length,
    );
    expect(arrived).toEqual(want);
    // After a close nothing more is sent.
    await announcer.close();
    announcer.announce("hearth_test_a", "late");
    await announcer.flush();
    expect(statements).toBe(1);
    await listen.end();
  });

  it("tries a refused statement again, and gives up with a warning after its attempts", async () => {
    let calls = 0;
    const warned: unknown[] = [];
    const flaky = {
      query: (async (...args: unknown[]) => {
        calls++;
        if (calls === 1) throw new Error("connection lost");
        return (t.database.pool.query as (...a: unknown[]) => unknown)(...args);
      }) as unknown as pg.Pool["query"],
    };
    const once = new Announcer(flaky, { warn: (obj) => warned.push(obj) });
    once.announce("hearth_test_a", "x");
    await once.flush();
    expect(calls).toBe(2);
    expect(warned).toHaveLength(0);

    // Nothing listens on port 1: every attempt is refused.
    const down = new pg.Pool({
      connectionString: "postgres://hearth@127.0.0.1:1/hearth",
      connectionTimeoutMillis: 500,
    });
    const never = new Announcer(down, { warn: (obj) => warned.push(obj) });
    never.announce("hearth_test_a", "y");
    await never.flush();
    expect(warned).toHaveLength(1);
    await down.end();
  });
});
