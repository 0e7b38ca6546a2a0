import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LEVEL_THRESHOLDS, LEVEL_MESSAGES, levelOf } from "#shared/levels";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { countAttendance } from "./levels.service";

/*
 * Points and levels (issue 20): member_points is moved by the triggers of migration 0023 in the
 * same transaction as what earns points, so after any mix of likes, unlikes, deletions and bans it
 * equals a recount from the rows themselves. Everything goes through the HTTP app where a route
 * exists; rows without one (lesson completions, past events, hard deletes) are written with SQL.
 */

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signedInUser>>;
const q = async <R = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await t.database.pool.query(text, values)).rows as R[];
const user = () => signedInUser(t);

async function community(owner: User, members: User[], name = "Levels") {
  const c = (
    await http.post("/api/communities", { name: `${name} ${Date.now().toString(36)}` }, { cookie: owner.cookie })
  ).body as { id: string };
  for (const m of members)
    expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: m.cookie })).status).toBe(200);
  return c.id;
}
const postBy = async (communityId: string, u: User) => {
  const res = await http.post(`/api/communities/${communityId}/posts`, { content: "points" }, { cookie: u.cookie });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
const like = async (postId: string, u: User) =>
  (await http.post(`/api/posts/${postId}/like`, {}, { cookie: u.cookie })).body.liked as boolean;

/** The stored row (null when none). */
async function stored(communityId: string, userId: string) {
  const [row] = await q<{
    like_points: number;
    lessons_completed: number;
    events_attended: number;
    points: number;
    level: number;
    top_level: number;
  }>(
    `SELECT like_points, lessons_completed, events_attended, points, level, top_level
       FROM member_points WHERE community_id = $1 AND user_id = $2`,
    [communityId, userId],
  );
  return row ?? null;
}

/** Likes that count, recounted from the like rows (the leaderboard's old all-time rule plus bans). */
async function recount(communityId: string, userId: string) {
  const [row] = await q<{ n: number }>(
    `SELECT (SELECT count(*) FROM post_likes l JOIN posts p ON p.id = l.post_id
              WHERE p.community_id = $1 AND p.author_id = $2 AND p.deleted_at IS NULL AND l.user_id <> p.author_id
                AND NOT EXISTS (SELECT 1 FROM community_bans b WHERE b.community_id = $1 AND b.user_id = l.user_id))
          + (SELECT count(*) FROM comment_likes l JOIN comments c ON c.id = l.comment_id JOIN posts p ON p.id = c.post_id
              WHERE p.community_id = $1 AND c.author_id = $2 AND p.deleted_at IS NULL AND c.deleted_at IS NULL
                AND l.user_id <> c.author_id
                AND NOT EXISTS (SELECT 1 FROM community_bans b WHERE b.community_id = $1 AND b.user_id = l.user_id))
       AS n`,
    [communityId, userId],
  );
  return Number(row.n);
}

const levelUps = (userId: string, communityId: string) =>
  q<{ title: string; data: { tab?: string } }>(
    `SELECT title, data FROM notifications WHERE user_id = $1 AND community_id = $2 AND type = 'level_up' ORDER BY created_at`,
    [userId, communityId],
  );

/** Runs every job due (the level-up notifications). */
async function drainJobs() {
  for (let i = 0; i < 20; i++) {
    const [{ n }] = await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE queue = 'levels.level_up' AND done_at IS NULL AND dead_at IS NULL`,
    );
    if (n === 0) return;
    await t.app.ctx.worker.runOnce();
  }
  throw new Error("level-up jobs still pending");
}

describe("points and levels", () => {
  it("make levels at the exact thresholds, in SQL as in levelOf", async () => {
    const [owner, author] = await Promise.all([user(), user()]);
    const cid = await community(owner, [author]);
    await q(`INSERT INTO member_points (community_id, user_id, like_points) VALUES ($1, $2, 0)`, [cid, author.id]);
    const cases: [number, number][] = [
      [0, 1],
      [4, 1],
      [5, 2],
      [19, 2],
      [20, 3],
      [64, 3],
      [65, 4],
      [154, 4],
      [155, 5],
      [514, 5],
      [515, 6],
      [2014, 6],
      [2015, 7],
      [8014, 7],
      [8015, 8],
      [33014, 8],
      [33015, 9],
      [1_000_000, 9],
    ];
    for (const [points, level] of cases) {
      expect(levelOf(points)).toBe(level);
      await q(`UPDATE member_points SET like_points = $3 WHERE community_id = $1 AND user_id = $2`, [
        cid,
        author.id,
        points,
      ]);
      expect(await stored(cid, author.id)).toMatchObject({ points, level });
      // A change made in SQL reaches the member cache through the database's announcement.
      const board = async () =>
        (await http.get(`/api/communities/${cid}/leaderboard?period=all`, { cookie: author.cookie })).body;
      await expect
        .poll(async () => (await board()).viewer_level)
        .toEqual({
          points,
          level,
          next: level === 9 ? null : { level: level + 1, points: DEFAULT_LEVEL_THRESHOLDS[level] - points },
        });
    }
  });

  it("stay exact under 50 concurrent like/unlike pairs by 50 members, and never count self-likes", async () => {
    const [owner, author] = await Promise.all([user(), user()]);
    const fans = await Promise.all(Array.from({ length: 50 }, () => user()));
    const cid = await community(owner, [author, ...fans.slice(0, 10)]);
    const postIds = await Promise.all([1, 2, 3].map(() => postBy(cid, author)));
    // The author likes their own posts: nothing.
    for (const p of postIds) expect(await like(p, author)).toBe(true);
    expect(await stored(cid, author.id)).toBeNull();
    // Everyone likes and unlikes, and every other fan likes again, all at once; the 40 not yet
    // members join by liking.
    await Promise.all(
      fans.map(async (f, i) => {
        const p = postIds[i % postIds.length];
        expect(await like(p, f)).toBe(true);
        expect(await like(p, f)).toBe(false);
        if (i % 2 === 0) expect(await like(p, f)).toBe(true);
      }),
    );
    const row = await stored(cid, author.id);
    expect(row?.like_points).toBe(25);
    expect(row?.like_points).toBe(await recount(cid, author.id));
    expect(row).toMatchObject({ points: 25, level: levelOf(25) });
    const board = await http.get(`/api/communities/${cid}/leaderboard?period=all`, { cookie: author.cookie });
    expect(board.body.items[0]).toMatchObject({ user_id: author.id, points: 25, level: 3, rank: 1 });
    expect(board.body.viewer).toMatchObject({ user_id: author.id, points: 25, level: 3, rank: 1 });
  });

  it("stop counting a banned member's likes, and count them again when the ban is lifted", async () => {
    const [owner, author, fan, troll] = await Promise.all([user(), user(), user(), user()]);
    const cid = await community(owner, [author, fan, troll]);
    const p = await postBy(cid, author);
    const comment = (await http.post(`/api/posts/${p}/comments`, { content: "mine" }, { cookie: author.cookie })).body;
    await like(p, fan);
    await like(p, troll);
    await http.post(`/api/comments/${comment.id}/like`, {}, { cookie: troll.cookie });
    expect((await stored(cid, author.id))?.like_points).toBe(3);

    const ban = await http.post(`/api/communities/${cid}/bans`, { user_id: troll.id }, { cookie: owner.cookie });
    expect(ban.status).toBe(204);
    expect((await stored(cid, author.id))?.like_points).toBe(1);
    expect(await recount(cid, author.id)).toBe(1);
    // A like recorded while banned does not count either.
    await q(`DELETE FROM post_likes WHERE post_id = $1 AND user_id = $2`, [p, troll.id]);
    await q(`INSERT INTO post_likes (post_id, user_id) VALUES ($1, $2)`, [p, troll.id]);
    expect((await stored(cid, author.id))?.like_points).toBe(1);

    expect((await http.delete(`/api/communities/${cid}/bans/${troll.id}`, { cookie: owner.cookie })).status).toBe(204);
    expect((await stored(cid, author.id))?.like_points).toBe(3);
    expect(await recount(cid, author.id)).toBe(3);
  });

  it("take a deleted post's likes and its comments' likes away, for soft and hard deletes and deleted accounts", async () => {
    const [owner, author, commenter, fan, leaver] = await Promise.all([user(), user(), user(), user(), user()]);
    const cid = await community(owner, [author, commenter, fan, leaver]);
    const p1 = await postBy(cid, author);
    const p2 = await postBy(cid, author);
    const c1 = (await http.post(`/api/posts/${p1}/comments`, { content: "a" }, { cookie: commenter.cookie })).body.id;
    const c2 = (await http.post(`/api/posts/${p2}/comments`, { content: "b" }, { cookie: commenter.cookie })).body.id;
    for (const u of [fan, leaver, owner]) {
      await like(p1, u);
      await like(p2, u);
      await http.post(`/api/comments/${c1}/like`, {}, { cookie: u.cookie });
      await http.post(`/api/comments/${c2}/like`, {}, { cookie: u.cookie });
    }
    expect((await stored(cid, author.id))?.like_points).toBe(6);
    expect((await stored(cid, commenter.id))?.like_points).toBe(6);

    // A comment deleted: its likes go.
    expect((await http.delete(`/api/comments/${c2}`, { cookie: commenter.cookie })).status).toBeLessThan(300);
    expect((await stored(cid, commenter.id))?.like_points).toBe(3);
    // A post deleted (soft): its likes and its visible comments' likes go.
    expect((await http.delete(`/api/posts/${p1}`, { cookie: author.cookie })).status).toBeLessThan(300);
    expect((await stored(cid, author.id))?.like_points).toBe(3);
    expect((await stored(cid, commenter.id))?.like_points).toBe(0);
    // Brought back (as a moderator's undo would): they count again.
    await q(`UPDATE posts SET deleted_at = NULL WHERE id = $1`, [p1]);
    expect((await stored(cid, author.id))?.like_points).toBe(6);
    expect((await stored(cid, commenter.id))?.like_points).toBe(3);
    // An account deleted: its likes go with it (the rows cascade).
    await q(`DELETE FROM "user" WHERE id = $1`, [leaver.id]);
    expect((await stored(cid, author.id))?.like_points).toBe(4);
    expect((await stored(cid, commenter.id))?.like_points).toBe(2);
    // A post removed for good: the cascade takes its likes and comments, and their points.
    await q(`DELETE FROM posts WHERE id = $1`, [p1]);
    expect((await stored(cid, author.id))?.like_points).toBe(2);
    expect((await stored(cid, commenter.id))?.like_points).toBe(0);
    for (const u of [author, commenter]) expect((await stored(cid, u.id))?.like_points).toBe(await recount(cid, u.id));
    // The author's own account removed: their likes given go, and nothing fails on their rows.
    await q(`DELETE FROM "user" WHERE id = $1`, [author.id]);
    expect(await stored(cid, author.id)).toBeNull();
  });

  it("add lesson and event points only when turned on, recomputed when the setting changes", async () => {
    const [owner, learner] = await Promise.all([user(), user()]);
    const cid = await community(owner, [learner]);
    const [course] = await q<{ id: string }>(
      `INSERT INTO courses (community_id, title, description) VALUES ($1, 'Basics', '') RETURNING id`,
      [cid],
    );
    const [mod] = await q<{ id: string }>(
      `INSERT INTO course_modules (course_id, title) VALUES ($1, 'One') RETURNING id`,
      [course.id],
    );
    const lessons = await q<{ id: string }>(
      `INSERT INTO course_lessons (module_id, title) SELECT $1, 'Lesson ' || i FROM generate_series(1, 3) i RETURNING id`,
      [mod.id],
    );
    for (const l of lessons)
      await q(`INSERT INTO lesson_completions (user_id, lesson_id, module_id, course_id) VALUES ($1, $2, $3, $4)`, [
        learner.id,
        l.id,
        mod.id,
        course.id,
      ]);
    expect(await stored(cid, learner.id)).toMatchObject({ lessons_completed: 3, points: 0, level: 1 });

    // An event that ended, with the learner going, and one cancelled: the sweep counts the first once.
    const [series] = await q<{ id: string }>(
      `INSERT INTO event_series (community_id, title, time_zone, duration_minutes, location_kind, meeting_url, starts_local)
       VALUES ($1, 'Call', 'UTC', 60, 'online', 'https://meet.example.test/x', '2030-01-01T10:00') RETURNING id`,
      [cid],
    );
    const occurrences = await q<{ id: string }>(
      `INSERT INTO event_occurrences (series_id, community_id, slot_at, starts_at, ends_at, title, time_zone,
                                      duration_minutes, location_kind, meeting_url, status)
       SELECT $1, $2, x, x, x + interval '1 hour', 'Call', 'UTC', 60, 'online', 'https://meet.example.test/x', s
         FROM (VALUES (now() - interval '3 hours', 'scheduled'), (now() - interval '5 hours', 'cancelled')) v(x, s)
       RETURNING id`,
      [series.id, cid],
    );
    for (const o of occurrences)
      await q(`INSERT INTO event_rsvps (occurrence_id, user_id, status) VALUES ($1, $2, 'going')`, [o.id, learner.id]);
    // Two sweeps at once (two processes): each occurrence counted once.
    await Promise.all([countAttendance(t.app.ctx), countAttendance(t.app.ctx)]);
    await countAttendance(t.app.ctx);
    expect(await stored(cid, learner.id)).toMatchObject({ events_attended: 1, points: 0 });

    const put = (body: unknown) => http.put(`/api/communities/${cid}/levels`, body, { cookie: owner.cookie });
    expect((await put({ points_per_lesson: 2 })).status).toBe(200);
    expect(await stored(cid, learner.id)).toMatchObject({ points: 6, level: 2 });
    expect((await put({ points_per_event: 10 })).status).toBe(200);
    expect(await stored(cid, learner.id)).toMatchObject({ points: 16, level: 2 });
    // A lesson completed now moves the points at once; undone, it goes.
    await q(`DELETE FROM lesson_completions WHERE user_id = $1 AND lesson_id = $2`, [learner.id, lessons[0].id]);
    expect(await stored(cid, learner.id)).toMatchObject({ lessons_completed: 2, points: 14 });
    expect((await put({ points_per_lesson: 0, points_per_event: 0 })).status).toBe(200);
    expect(await stored(cid, learner.id)).toMatchObject({ points: 0, level: 1 });
    // The course removed: its completions no longer count.
    await q(`DELETE FROM courses WHERE id = $1`, [course.id]);
    expect(await stored(cid, learner.id)).toMatchObject({ lessons_completed: 0 });
  });

  it("notify a level-up once per level, in the bell with the leaderboards tab, and not for threshold edits", async () => {
    const [owner, author] = await Promise.all([user(), user()]);
    const fans = await Promise.all(Array.from({ length: 6 }, () => user()));
    const cid = await community(owner, [author, ...fans], "Climbers");
    const p = await postBy(cid, author);
    for (const f of fans.slice(0, 5)) await like(p, f);
    await drainJobs();
    let got = await levelUps(author.id, cid);
    expect(got).toHaveLength(1);
    expect(got[0].title).toMatch(/^You reached level 2 in Climbers /);
    expect(got[0].data.tab).toBe("leaderboards");
    // Down and up again: no second notification for level 2.
    await like(p, fans[0]);
    expect((await stored(cid, author.id))?.level).toBe(1);
    await like(p, fans[0]);
    await drainJobs();
    expect(await levelUps(author.id, cid)).toHaveLength(1);
    // The owner lowers the thresholds: level 3 is reached without a notification.
    const thresholds = [0, 2, 4, 65, 155, 515, 2015, 8015, 33015];
    expect((await http.put(`/api/communities/${cid}/levels`, { thresholds }, { cookie: owner.cookie })).status).toBe(
      200,
    );
    expect(await stored(cid, author.id)).toMatchObject({ level: 3, top_level: 3 });
    await drainJobs();
    expect(await levelUps(author.id, cid)).toHaveLength(1);
    // Custom names show in the next one.
    const names = ["Seed", "Sprout", "Leaf", "Branch", "Tree", "Grove", "Forest", "Canopy", "Legend"];
    expect(
      (
        await http.put(
          `/api/communities/${cid}/levels`,
          { names, thresholds: [0, 2, 4, 6, 155, 515, 2015, 8015, 33015] },
          { cookie: owner.cookie },
        )
      ).status,
    ).toBe(200);
    await like(p, fans[5]);
    await drainJobs();
    got = await levelUps(author.id, cid);
    expect(got.map((n) => n.title.split(" in ")[0])).toEqual(["You reached level 2", "You reached level 4 (Branch)"]);
    const board = await http.get(`/api/communities/${cid}/leaderboard?period=all`, { cookie: owner.cookie });
    expect(board.body.viewer_level).toEqual({ points: 0, level: 1, next: { level: 2, points: 2 } });
    expect(board.body.ladder.map((r: { name: string; threshold: number }) => [r.name, r.threshold])[3]).toEqual([
      "Branch",
      6,
    ]);
  });

  it("show levels on every period and the ladder of current members", async () => {
    const [owner, a, b, idle, leaver] = await Promise.all([user(), user(), user(), user(), user()]);
    const cid = await community(owner, [a, b, idle, leaver]);
    const pa = await postBy(cid, a);
    const pl = await postBy(cid, leaver);
    for (const u of [owner, b, idle, leaver]) await like(pa, u);
    for (const u of [owner, a, b, idle]) await like(pl, u);
    await q(`UPDATE member_points SET like_points = like_points + 16 WHERE community_id = $1 AND user_id = $2`, [
      cid,
      a.id,
    ]);
    expect((await http.post(`/api/communities/${cid}/leave`, {}, { cookie: leaver.cookie })).status).toBeLessThan(300);
    const expectLadder = async () => {
      const all = await http.get(`/api/communities/${cid}/leaderboard?period=all`, { cookie: idle.cookie });
      expect(all.status).toBe(200);
      const rungs = all.body.ladder as { level: number; members: number; share: number }[];
      return { all, rungs };
    };
    // The ladder is cached briefly and dropped when a level changes: wait for the current one.
    let r = await expectLadder();
    for (let i = 0; i < 100 && r.rungs[2].members !== 1; i++) r = await expectLadder();
    // Four current members: a at level 3 (20 points), three at level 1; the leaver is not counted.
    expect(r.rungs.map((x) => x.members)).toEqual([3, 0, 1, 0, 0, 0, 0, 0, 0]);
    expect(r.rungs.map((x) => x.share)).toEqual([75, 0, 25, 0, 0, 0, 0, 0, 0]);
    expect(r.all.body.items).toEqual([expect.objectContaining({ user_id: a.id, points: 20, level: 3, rank: 1 })]);
    expect(r.all.body.viewer).toBeNull();
    expect(r.all.body.viewer_level).toEqual({ points: 0, level: 1, next: { level: 2, points: 5 } });
    const week = await http.get(`/api/communities/${cid}/leaderboard?period=7d`, { cookie: a.cookie });
    expect(week.body.items).toEqual([expect.objectContaining({ user_id: a.id, points: 4, level: 3, rank: 1 })]);
    // Outside the top list, the viewer still gets their rank.
    const top1 = await http.get(`/api/communities/${cid}/leaderboard?period=all&limit=1`, { cookie: b.cookie });
    expect(top1.body.viewer).toBeNull();
    await like(pa, a); // self: nothing
    await like(await postBy(cid, b), owner);
    const mine = await http.get(`/api/communities/${cid}/leaderboard?period=all&limit=1`, { cookie: b.cookie });
    expect(mine.body.items).toHaveLength(1);
    expect(mine.body.viewer).toMatchObject({ user_id: b.id, points: 1, level: 1, rank: 2 });
    // Anonymous visitors of a public community see it, without a level of their own.
    const anon = await http.get(`/api/communities/${cid}/leaderboard?period=all`);
    expect(anon.status).toBe(200);
    expect(anon.body.viewer_level).toBeNull();
  });

  it("validate the level settings with their messages, for owners and admins only", async () => {
    const [owner, member, outsider] = await Promise.all([user(), user(), user()]);
    const cid = await community(owner, [member]);
    const put = (body: unknown, u = owner) => http.put(`/api/communities/${cid}/levels`, body, { cookie: u.cookie });
    const messageOf = async (body: unknown) => {
      const res = await put(body);
      expect(res.status).toBe(400);
      return JSON.stringify(res.body);
    };
    const ok = [0, 5, 20, 65, 155, 515, 2015, 8015, 33015];
    expect(await messageOf({ thresholds: [1, ...ok.slice(1)] })).toContain(LEVEL_MESSAGES.firstThreshold);
    expect(await messageOf({ thresholds: [0, 5, 5, 65, 155, 515, 2015, 8015, 33015] })).toContain(
      LEVEL_MESSAGES.thresholdsOrder,
    );
    expect(await messageOf({ thresholds: [...ok.slice(0, 8), 10_000_001] })).toContain(LEVEL_MESSAGES.thresholdTooHigh);
    expect(await messageOf({ names: ["", ...Array(8).fill("x")] })).toContain(LEVEL_MESSAGES.nameRequired);
    expect(await messageOf({ names: ["x".repeat(31), ...Array(8).fill("x")] })).toContain(LEVEL_MESSAGES.nameTooLong);
    expect(await messageOf({ points_per_lesson: 101 })).toContain(LEVEL_MESSAGES.bonusRange);
    expect(await messageOf({ min_post_level: 10 })).toContain(LEVEL_MESSAGES.minLevelRange);

    const saved = await put({ names: ["A", "B", "C", "D", "E", "F", "G", "H", "I"], min_post_level: 2 });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      names: ["A", "B", "C", "D", "E", "F", "G", "H", "I"],
      thresholds: ok,
      points_per_lesson: 0,
      points_per_event: 0,
      min_post_level: 2,
    });
    const read = await http.get(`/api/communities/${cid}/levels`, { cookie: member.cookie });
    expect(read.body).toEqual(saved.body);
    expect((await put({ min_post_level: 3 }, member)).status).toBe(403);
    expect((await http.get(`/api/communities/${cid}/levels`, { cookie: outsider.cookie })).status).toBe(403);
    expect((await http.get(`/api/communities/${cid}/levels`)).status).toBe(401);
    // A private community answers outsiders as if it did not exist.
    await q(`UPDATE communities SET visibility = 'private' WHERE id = $1`, [cid]);
    expect((await http.get(`/api/communities/${cid}/levels`, { cookie: outsider.cookie })).status).toBe(404);
    expect((await put({ min_post_level: 3 }, outsider)).status).toBe(404);
    // Default names given back are stored as 'defaults'.
    const names = Array.from({ length: 9 }, (_, i) => `Level ${i + 1}`);
    expect((await put({ names })).body.names).toEqual(names);
    expect(
      (await q<{ level_names: unknown }>(`SELECT level_names FROM communities WHERE id = $1`, [cid]))[0].level_names,
    ).toBeNull();
  });
});
