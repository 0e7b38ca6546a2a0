import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COURSE_MESSAGES as CM } from "#shared/courses";
import { DEFAULT_LEVEL_THRESHOLDS, LEVEL_MESSAGES } from "#shared/levels";
import { api, createTestApp, signedInUser, upload, type TestApp } from "#server/test/harness";

// Courses unlocked at a level (issue 20): open to members who reached it and always to owners,
// admins and moderators; refused by the server (detail, lessons, media, progress) to everyone else.

let t: TestApp;
type User = Awaited<ReturnType<typeof signedInUser>>;
const ROLES = {
  owner: null,
  admin: "admin",
  moderator: "moderator",
  below: "member",
  at: "member",
  above: "member",
  guest: "guest",
  outsider: null,
} as const;
type Who = keyof typeof ROLES;
const users = {} as Record<Who, User>;
let community: { id: string; slug: string };
const http = () => api(t.app);
const YT = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const NAMES = ["Newcomer", "Regular", "Insider", "Veteran", "Elder", "Sage", "Legend", "Mythic", "Founder"];

/** Sets a member's level as the points triggers would (like points at the level's threshold). */
async function setLevel(who: Who, level: number) {
  const points = DEFAULT_LEVEL_THRESHOLDS[level - 1];
  await t.database.pool.query(
    `INSERT INTO member_points (community_id, user_id, like_points, points, level) VALUES ($1, $2, $3, $3, $4)
     ON CONFLICT (community_id, user_id) DO UPDATE SET like_points = $3, points = $3, level = $4`,
    [community.id, users[who].id, points, level],
  );
}

beforeAll(async () => {
  t = await createTestApp();
  for (const who of Object.keys(ROLES) as Who[]) users[who] = await signedInUser(t);
  community = (await http().post("/api/communities", { name: "Level lab" }, { cookie: users.owner.cookie })).body;
  await t.database.pool.query(`UPDATE communities SET level_names = $2 WHERE id = $1`, [community.id, NAMES]);
  for (const [who, role] of Object.entries(ROLES)) {
    if (!role) continue;
    await t.database.pool.query(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)`, [
      community.id,
      users[who as Who].id,
      role,
    ]);
  }
  await setLevel("below", 2);
  await setLevel("at", 3);
  await setLevel("above", 5);
  await setLevel("guest", 2);
});
afterAll(() => t.close());

const newCourse = (body: Record<string, unknown>, who: Who = "admin") =>
  http().post(
    `/api/communities/${community.id}/courses`,
    { title: "Course", description: "About it", ...body },
    { cookie: users[who].cookie },
  );

async function levelCourse(level: number, videoUrl = YT) {
  const created = await newCourse({ title: `Level ${level}`, access: "level", unlock_level: level });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const moduleId = created.body.modules[0].id as string;
  const lesson = await http().post(
    `/api/modules/${moduleId}/lessons`,
    { title: "Inside", video_url: videoUrl, resources: [{ title: "Notes", url: "https://example.com/notes" }] },
    { cookie: users.admin.cookie },
  );
  expect(lesson.status).toBe(201);
  const preview = await http().post(
    `/api/modules/${moduleId}/lessons`,
    { title: "Taster", video_url: YT, is_preview: true },
    { cookie: users.admin.cookie },
  );
  expect(preview.status).toBe(201);
  const courseId = created.body.course.id as string;
  await http().patch(`/api/courses/${courseId}`, { status: "published" }, { cookie: users.owner.cookie });
  const [inside, taster] = preview.body.modules[0].lessons as { id: string }[];
  return { courseId, lessonId: inside.id, previewId: taster.id };
}

const cookieOf = (who: Who | "anonymous") => (who === "anonymous" ? undefined : users[who].cookie);

describe("creating and editing a course unlocked at a level", () => {
  it("needs a level from 2 to 9 with access 'level' and refuses one otherwise", async () => {
    const missing = await newCourse({ access: "level" });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe(CM.unlockLevelNeeded);
    for (const level of [1, 10, 2.5]) {
      const bad = await newCourse({ access: "level", unlock_level: level });
      expect(bad.status, String(level)).toBe(400);
      expect(bad.body.error.message).toBe(CM.unlockLevelRange);
    }
    const unused = await newCourse({ access: "members", unlock_level: 3 });
    expect(unused.status).toBe(400);
    expect(unused.body.error.message).toBe(CM.unlockLevelUnused);
    const moderator = await newCourse({ access: "level", unlock_level: 3 }, "moderator");
    expect(moderator.status).toBe(403);

    const made = await newCourse({ access: "level", unlock_level: 9, price: 0 });
    expect(made.status).toBe(201);
    expect(made.body.course).toMatchObject({
      access: "level",
      unlock_level: 9,
      unlock_level_name: "Founder",
      price: 0,
      has_access: true,
    });
    const id = made.body.course.id as string;
    const patch = (body: Record<string, unknown>) =>
      http().patch(`/api/courses/${id}`, body, { cookie: users.owner.cookie });
    // The level alone changes; a price alone keeps the course unlocked at its level.
    expect((await patch({ unlock_level: 4 })).body.course).toMatchObject({ access: "level", unlock_level: 4 });
    expect((await patch({ price: 0 })).body.course).toMatchObject({ access: "level", unlock_level: 4 });
    expect((await patch({ unlock_level: null })).body.error.message).toBe(CM.unlockLevelNeeded);
    // Leaving 'level' drops the level; naming one with another access is refused.
    expect((await patch({ access: "members" })).body.course).toMatchObject({ access: "members", unlock_level: null });
    expect((await patch({ unlock_level: 3 })).body.error.message).toBe(CM.unlockLevelUnused);
    const stored = await t.database.pool.query(`SELECT access, unlock_level FROM courses WHERE id = $1`, [id]);
    expect(stored.rows[0]).toEqual({ access: "members", unlock_level: null });
  });
});

describe("who a level course opens to", () => {
  // Expected for a course unlocked at level 3: has access, and (when not) why.
  const expected: Record<Who | "anonymous", { open: boolean; reason: string | null; listed: boolean }> = {
    owner: { open: true, reason: null, listed: true },
    admin: { open: true, reason: null, listed: true },
    moderator: { open: true, reason: null, listed: true },
    below: { open: false, reason: "level", listed: true },
    at: { open: true, reason: null, listed: true },
    above: { open: true, reason: null, listed: true },
    guest: { open: false, reason: "level", listed: true },
    outsider: { open: false, reason: "join", listed: true },
    anonymous: { open: false, reason: "join", listed: true },
  };

  it("lists the course with its lock and level, and shows or hides lessons by role and level", async () => {
    const c = await levelCourse(3);
    for (const [who, want] of Object.entries(expected) as [Who | "anonymous", (typeof expected)[Who]][]) {
      const list = await http().get(`/api/communities/${community.id}/courses`, { cookie: cookieOf(who) });
      expect(list.status, who).toBe(200);
      const card = list.body.items.find((i: { id: string }) => i.id === c.courseId);
      expect(card, who).toMatchObject({
        has_access: want.open,
        lock_reason: want.reason,
        unlock_level: 3,
        unlock_level_name: "Insider",
      });

      const detail = await http().get(`/api/courses/${c.courseId}`, { cookie: cookieOf(who) });
      expect(detail.status, who).toBe(200);
      expect(detail.body.course, who).toMatchObject({ has_access: want.open, lock_reason: want.reason });
      const [inside, taster] = detail.body.modules[0].lessons;
      if (want.open) {
        expect(inside, who).toMatchObject({ locked: false, lock_reason: null, video_url: YT });
        expect(inside.resources, who).toHaveLength(1);
      } else {
        expect(inside, who).toMatchObject({ locked: true, lock_reason: want.reason, video_url: null, resources: [] });
      }
      // A free preview opens to members below the level, never to those outside.
      const member = who !== "outsider" && who !== "anonymous";
      expect(taster.locked, who).toBe(!member);
    }
    expect((await http().get(`/api/courses/${c.courseId}`, { cookie: users.above.cookie })).body.course).toMatchObject({
      viewer_level: 5,
    });
  });

  it("records progress only for those the course opens to (previews for members)", async () => {
    const c = await levelCourse(3);
    for (const who of Object.keys(ROLES) as Who[]) {
      const res = await http().post(`/api/lessons/${c.lessonId}/complete`, {}, { cookie: users[who].cookie });
      const want = expected[who];
      if (want.open) {
        expect(res.status, who).toBe(200);
        expect(res.body.completed_count, who).toBe(1);
      } else if (who === "outsider") {
        expect(res.status, who).toBe(403);
        expect(res.body.error.message).toBe("Join the community to take its courses");
      } else {
        expect(res.status, who).toBe(403);
        expect(res.body.error.message, who).toBe(LEVEL_MESSAGES.courseLocked(3, "Insider"));
      }
    }
    const anonymous = await http().post(`/api/lessons/${c.lessonId}/complete`, {});
    expect(anonymous.status).toBe(401);
    const taster = await http().post(`/api/lessons/${c.previewId}/complete`, {}, { cookie: users.below.cookie });
    expect(taster.status).toBe(200);
    const rows = await t.database.pool.query(
      `SELECT user_id FROM lesson_completions WHERE lesson_id = $1 ORDER BY user_id`,
      [c.lessonId],
    );
    const done = ["owner", "admin", "moderator", "at", "above"].map((w) => users[w as Who].id).sort();
    expect(rows.rows.map((r) => r.user_id)).toEqual(done);
  });

  it("opens once the member reaches the level, and closes again below it", async () => {
    const c = await levelCourse(4);
    const view = async () => (await http().get(`/api/courses/${c.courseId}`, { cookie: users.at.cookie })).body;
    expect((await view()).course).toMatchObject({ has_access: false, lock_reason: "level", viewer_level: 3 });
    await setLevel("at", 4);
    expect((await view()).course).toMatchObject({ has_access: true, lock_reason: null, viewer_level: 4 });
    await setLevel("at", 3);
    expect((await view()).course).toMatchObject({ has_access: false, lock_reason: "level" });
  });

  it("serves a level course's uploaded video only to those it opens to", async () => {
    const video = Buffer.concat([
      Buffer.from("000000186674797069736f6d0000020069736f6d6d703432", "hex"),
      randomBytes(4096),
    ]);
    const up = await upload(
      t,
      "/api/upload",
      users.admin.cookie,
      { name: "l.mp4", type: "video/mp4", data: video },
      { communityId: community.id, uploadType: "courses" },
    );
    expect(up.status).toBe(200);
    await levelCourse(3, up.body.url);
    const get = (who: Who | "anonymous") =>
      t.app.inject({
        method: "GET",
        url: up.body.url,
        headers: who === "anonymous" ? {} : { cookie: users[who].cookie },
      });
    for (const [who, want] of Object.entries(expected) as [Who | "anonymous", (typeof expected)[Who]][]) {
      expect((await get(who)).statusCode, who).toBe(want.open ? 200 : 404);
    }
    // Reaching the level opens the file; falling below closes it again.
    await setLevel("below", 3);
    expect((await get("below")).statusCode).toBe(200);
    await setLevel("below", 2);
    expect((await get("below")).statusCode).toBe(404);
  });
});
