import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LEVEL_THRESHOLDS, levelOf } from "#shared/levels";
import { api, sessionCookie } from "#server/test/harness";
import { DEMO_PASSWORD } from "./content/accounts.data";
import { DEMO_APPLICATIONS, LEVEL_LADDERS, REQUESTS_COMMUNITY } from "./content/levels.data";
import { DEMO_COURSES } from "./content/courses.data";
import { query, t, userId, useSeededApp } from "./seed.test-helpers";

useSeededApp();

const levelCourse = DEMO_COURSES.find((c) => c.unlockLevel)!;

describe("demo levels and join requests", () => {
  const cookies: Record<string, string> = {};
  const as = (who: "owner" | "member") => ({ cookie: cookies[who] });

  beforeAll(async () => {
    for (const who of ["owner", "member"] as const) {
      const res = await api(t.app).post("/api/auth/sign-in/email", {
        email: `${who}@hearth.test`,
        password: DEMO_PASSWORD,
      });
      cookies[who] = sessionCookie(res.headers);
    }
  });

  it("counts every member's points from the like rows: likes received from others, on what is not deleted", async () => {
    const [diff] = await query<{ rows: number; wrong: number; missing: number }>(sql`
      WITH likes AS (
        SELECT p.community_id, p.author_id AS user_id, count(*)::int AS n
          FROM post_likes l JOIN posts p ON p.id = l.post_id
         WHERE p.deleted_at IS NULL AND l.user_id <> p.author_id GROUP BY 1, 2
        UNION ALL
        SELECT p.community_id, c.author_id, count(*)::int
          FROM comment_likes l JOIN comments c ON c.id = l.comment_id JOIN posts p ON p.id = c.post_id
         WHERE p.deleted_at IS NULL AND c.deleted_at IS NULL AND l.user_id <> c.author_id GROUP BY 1, 2
      ),
      recount AS (SELECT community_id, user_id, sum(n)::int AS n FROM likes GROUP BY 1, 2)
      SELECT (SELECT count(*)::int FROM member_points) AS rows,
             (SELECT count(*)::int FROM recount r JOIN member_points m USING (community_id, user_id)
               WHERE m.like_points <> r.n) AS wrong,
             (SELECT count(*)::int FROM recount r
               WHERE NOT EXISTS (SELECT 1 FROM member_points m WHERE m.community_id = r.community_id
                                 AND m.user_id = r.user_id)) AS missing`);
    expect(diff.rows).toBeGreaterThan(1000);
    expect(diff).toMatchObject({ wrong: 0, missing: 0 });
    // Points and level as the shared rule makes them (no lesson or event points in the demo).
    const rows = await query<{ like_points: number; points: number; level: number; top_level: number }>(sql`
      SELECT like_points, points, level, top_level FROM member_points`);
    for (const r of rows) {
      expect(r.points).toBe(r.like_points);
      expect(r.level).toBe(levelOf(r.points, DEFAULT_LEVEL_THRESHOLDS));
      expect(r.top_level).toBe(r.level);
    }
    // Levels reached in the seed are not announced.
    const [{ jobs }] = await query<{ jobs: number }>(sql`
      SELECT count(*)::int AS jobs FROM jobs WHERE queue = 'levels.level_up'`);
    expect(jobs).toBe(0);
  });

  it("spreads members over levels 1 to 5 in Python for Data People and up to 6 in Creator Growth Lab", async () => {
    const levels = async (slug: string) => {
      const rows = await query<{ level: number; n: number }>(sql`
        SELECT coalesce(mp.level, 1)::int AS level, count(*)::int AS n
          FROM community_members m JOIN communities c ON c.id = m.community_id
          LEFT JOIN member_points mp ON mp.community_id = m.community_id AND mp.user_id = m.user_id
         WHERE c.slug = ${slug} GROUP BY 1 ORDER BY 1`);
      return Object.fromEntries(rows.map((r) => [r.level, r.n]));
    };
    const python = await levels("python-for-data-people");
    expect(Object.keys(python).map(Number)).toEqual([1, 2, 3, 4, 5]);
    // More people the lower the level: most members are at level 1.
    for (let l = 2; l <= 5; l++) expect(python[l - 1], `level ${l - 1}`).toBeGreaterThanOrEqual(python[l]);
    const lab = await levels("creator-growth-lab");
    expect(Object.keys(lab).map(Number)).toEqual([1, 2, 3, 4, 5, 6]);
    // Every ladder's rungs are reached exactly or passed: the top of each ladder is someone's level.
    for (const [slug, ladder] of Object.entries(LEVEL_LADDERS)) {
      const spread = await levels(slug);
      expect(Math.max(...Object.keys(spread).map(Number)), slug).toBeGreaterThanOrEqual(levelOf(ladder[0]));
    }
    // The leaderboards page shows the same ladder to a member.
    const res = await api(t.app).get("/api/communities/python-for-data-people/leaderboard?period=all", as("member"));
    expect(res.status).toBe(200);
    const ladder = res.body.ladder as { level: number; members: number }[];
    expect(ladder.filter((r) => r.members > 0).map((r) => r.level)).toEqual([1, 2, 3, 4, 5]);
    expect(res.body.items[0].level).toBe(5);
  });

  it("has a course in Python for Data People unlocked at level 3, locked for member@hearth.test below it", async () => {
    expect(levelCourse).toMatchObject({ community: "python-for-data-people", unlockLevel: 3, price: 0 });
    const [row] = await query<{ id: string; access: string; unlock_level: number; status: string }>(sql`
      SELECT id, access, unlock_level, status FROM courses WHERE title = ${levelCourse.title}`);
    expect(row).toMatchObject({ access: "level", unlock_level: 3, status: "published" });
    const max = await userId("member@hearth.test");
    const [standing] = await query<{ level: number; role: string }>(sql`
      SELECT coalesce(mp.level, 1)::int AS level, m.role FROM community_members m
        JOIN communities c ON c.id = m.community_id
        LEFT JOIN member_points mp ON mp.community_id = m.community_id AND mp.user_id = m.user_id
       WHERE c.slug = 'python-for-data-people' AND m.user_id = ${max}`);
    expect(standing.role).toBe("member");
    expect(standing.level).toBeLessThan(3);
    const list = await api(t.app).get("/api/communities/python-for-data-people/courses", as("member"));
    expect(list.status).toBe(200);
    const card = (list.body.items as { id: string; has_access: boolean; lock_reason: string | null }[]).find(
      (c) => c.id === row.id,
    );
    expect(card).toMatchObject({ has_access: false, lock_reason: "level", unlock_level: 3 });
    // Its lessons stay closed to them: the server answers the lock, not the video.
    const detail = await api(t.app).get(`/api/courses/${row.id}`, as("member"));
    expect(detail.status).toBe(200);
    expect(detail.body.course).toMatchObject({ has_access: false, lock_reason: "level", unlock_level: 3 });
    const lessons = (detail.body.modules as { lessons: { locked: boolean; video_url: string | null }[] }[]).flatMap(
      (m) => m.lessons,
    );
    expect(lessons.length).toBeGreaterThan(0);
    for (const l of lessons) expect(l).toMatchObject({ locked: true, video_url: null });
    // The lesson videos are refused too.
    const [video] = await query<{ key: string }>(sql`
      SELECT f.key FROM media_files f JOIN course_lessons l ON l.id = f.lesson_id
        JOIN course_modules m ON m.id = l.module_id WHERE m.course_id = ${row.id}`);
    expect((await api(t.app).get(`/media/${video.key}`, as("member"))).status).toBe(404);
  });

  it("has Studio Insiders take requests, with pending ones and their answers for owner@hearth.test", async () => {
    const [c] = await query<{ id: string; join_policy: string; request_questions: string[]; visibility: string }>(sql`
      SELECT id, join_policy, request_questions, visibility FROM communities WHERE slug = ${REQUESTS_COMMUNITY}`);
    expect(c.join_policy).toBe("request");
    expect(c.visibility).toBe("private");
    expect(c.request_questions.length).toBeGreaterThanOrEqual(2);
    expect(c.request_questions.length).toBeLessThanOrEqual(3);
    expect(c.request_questions).toContain("What do you hope to learn here?");
    // Every other private community is still invite only; the public ones stay open.
    const [policies] = await query<{ wrong: number }>(sql`
      SELECT count(*)::int AS wrong FROM communities WHERE slug <> ${REQUESTS_COMMUNITY}
         AND join_policy <> CASE WHEN visibility = 'private' THEN 'invite' ELSE 'open' END`);
    expect(policies.wrong).toBe(0);

    const rows = await query<{ user_id: string; status: string; answers: { question: string; answer: string }[] }>(sql`
      SELECT user_id, status, answers FROM join_requests WHERE community_id = ${c.id}`);
    expect(rows.length).toBe(DEMO_APPLICATIONS.length);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.length).toBeLessThanOrEqual(5);
    const max = await userId("member@hearth.test");
    const members = new Set(
      (await query<{ user_id: string }>(sql`SELECT user_id FROM community_members WHERE community_id = ${c.id}`)).map(
        (m) => m.user_id,
      ),
    );
    for (const r of rows) {
      expect(r.status).toBe("pending");
      expect(members.has(r.user_id)).toBe(false);
      expect(r.user_id).not.toBe(max);
      expect(r.answers.map((a) => a.question)).toEqual(c.request_questions);
      for (const a of r.answers) expect(a.answer.length).toBeGreaterThan(0);
    }
    expect(new Set(rows.map((r) => r.user_id)).size).toBe(rows.length);

    // The Admin tab's queue: oldest first, with the answers.
    const res = await api(t.app).get(`/api/communities/${REQUESTS_COMMUNITY}/join-requests`, as("owner"));
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(rows.length);
    const items = res.body.items as { created_at: string; answers: unknown[] }[];
    expect(items.length).toBe(rows.length);
    const times = items.map((i) => Date.parse(i.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(items.every((i) => i.answers.length === c.request_questions.length)).toBe(true);
    // owner@hearth.test heard of each one; the newest are unread and lead to the Admin tab.
    const notes = await api(t.app).get("/api/notifications?limit=50", as("owner"));
    const asked = (notes.body.items as { type: string; title: string; href: string; is_read: boolean }[]).filter(
      (n) => n.type === "join_request",
    );
    expect(asked.length).toBe(rows.length);
    for (const n of asked) {
      expect(n.title).toMatch(/ asked to join$/);
      expect(n.href).toBe(`/community/${c.id}?tab=admin`);
    }
    expect(asked.some((n) => !n.is_read)).toBe(true);
    // Not for a plain outsider.
    const outsider = await api(t.app).get(`/api/communities/${REQUESTS_COMMUNITY}/join-requests`, as("member"));
    expect([403, 404]).toContain(outsider.status);
  });
});
