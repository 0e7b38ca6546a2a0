import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COURSE_MESSAGES as CM, DEFAULT_MODULE_TITLE } from "#shared/courses";
import { api, createTestApp, signedInUser, upload, type TestApp } from "#server/test/harness";

let t: TestApp;
type User = Awaited<ReturnType<typeof signedInUser>>;
const users = {} as Record<"owner" | "admin" | "moderator" | "member" | "outsider", User>;
let community: { id: string; slug: string };
const http = () => api(t.app);

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["owner", "admin", "moderator", "member", "outsider"] as const) users[who] = await signedInUser(t);
  community = (await http().post("/api/communities", { name: "Course lab" }, { cookie: users.owner.cookie })).body;
  for (const [who, role] of [
    ["admin", "admin"],
    ["moderator", "moderator"],
    ["member", "member"],
  ] as const) {
    await t.database.pool.query(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)`, [
      community.id,
      users[who].id,
      role,
    ]);
  }
});
afterAll(() => t.close());

const YT = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";

async function newCourse(body: Record<string, unknown> = {}, cookie = users.admin.cookie) {
  const res = await http().post(
    `/api/communities/${community.id}/courses`,
    { title: "Course", description: "About it", ...body },
    { cookie },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const addLesson = async (moduleId: string, body: Record<string, unknown> = {}) => {
  const res = await http().post(
    `/api/modules/${moduleId}/lessons`,
    { title: "Lesson", video_url: YT, ...body },
    { cookie: users.admin.cookie },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

describe("authoring", () => {
  it("creates a draft with the default module, for owners and admins only", async () => {
    const created = await newCourse({ price: 19.99 });
    expect(created.course).toMatchObject({ status: "draft", price: 19.99, progress: 0, lessons_count: 0 });
    expect(created.modules.map((m: { title: string }) => m.title)).toEqual([DEFAULT_MODULE_TITLE]);
    for (const who of ["moderator", "member", "outsider"] as const) {
      const res = await http().post(
        `/api/communities/${community.id}/courses`,
        { title: "Mine", description: "x" },
        { cookie: users[who].cookie },
      );
      expect(res.status, who).toBe(403);
    }
    expect(
      (await http().post(`/api/communities/${community.id}/courses`, { title: "x", description: "x" })).status,
    ).toBe(401);
  });

  it("answers the spec's validation messages", async () => {
    const post = (body: unknown) =>
      http().post(`/api/communities/${community.id}/courses`, body, { cookie: users.owner.cookie });
    expect((await post({ title: "  ", description: "d" })).body.error.message).toBe(CM.titleRequired);
    expect((await post({ title: "t", description: "" })).body.error.message).toBe(CM.descriptionRequired);
    expect((await post({ title: "t", description: "d", price: -1 })).body.error.message).toBe(CM.priceInvalid);
    expect((await post({ title: "t", description: "d", price: 1.234 })).body.error.message).toBe(
      "Price must be in steps of 0.01",
    );
    expect((await post({ title: "t", description: "d", price: "ten" })).status).toBe(400);

    const c = await newCourse();
    const lesson = (body: unknown) =>
      http().post(`/api/modules/${c.modules[0].id}/lessons`, body, { cookie: users.admin.cookie });
    expect((await lesson({ title: "", video_url: YT })).body.error.message).toBe(CM.titleRequired);
    expect((await lesson({ title: "No video" })).body.error.message).toBe(CM.videoRequired);
    expect((await lesson({ title: "Bad video", video_url: "javascript:alert(1)" })).body.error.message).toBe(
      CM.videoUnsupported,
    );
    expect((await lesson({ title: "Short", video_url: YT, duration_minutes: 0 })).body.error.message).toBe(
      CM.durationMin,
    );
    expect(
      (await lesson({ title: "Res", video_url: YT, resources: [{ title: "x", url: "javascript:alert(1)" }] })).body
        .error.message,
    ).toBe(CM.resourceUrl);
    const ok = await lesson({ title: "Fine", video_url: YT, duration_minutes: 12 });
    expect(ok.body.modules[0].lessons[0]).toMatchObject({ title: "Fine", video_duration: 720 });
    expect((await lesson({ title: "Plain http", video_url: "http://example.com/a.mp4" })).status).toBe(400);
    expect((await lesson({ title: "File", video_url: "https://example.com/a.mp4" })).status).toBe(201);
  });

  it("keeps lessons, modules and courses in order, and reorders them", async () => {
    const c = await newCourse();
    const moduleId = c.modules[0].id;
    for (const title of ["One", "Two", "Three"]) await addLesson(moduleId, { title });
    let detail = (await http().get(`/api/courses/${c.course.id}`, { cookie: users.admin.cookie })).body;
    const lessons = detail.modules[0].lessons;
    expect(lessons.map((l: { title: string; order_index: number }) => [l.title, l.order_index])).toEqual([
      ["One", 0],
      ["Two", 1],
      ["Three", 2],
    ]);
    const ids = lessons.map((l: { id: string }) => l.id);
    const reordered = await http().put(
      `/api/modules/${moduleId}/lessons/order`,
      { ids: [ids[2], ids[0], ids[1]] },
      { cookie: users.admin.cookie },
    );
    expect(reordered.body.modules[0].lessons.map((l: { title: string }) => l.title)).toEqual(["Three", "One", "Two"]);
    const partial = await http().put(
      `/api/modules/${moduleId}/lessons/order`,
      { ids: [ids[0], ids[1]] },
      { cookie: users.admin.cookie },
    );
    expect(partial.status).toBe(400);

    await http().post(`/api/courses/${c.course.id}/modules`, { title: "Module 2" }, { cookie: users.admin.cookie });
    detail = (
      await http().post(`/api/courses/${c.course.id}/modules`, { title: "Module 3" }, { cookie: users.admin.cookie })
    ).body;
    expect(detail.modules.map((m: { title: string }) => m.title)).toEqual([
      DEFAULT_MODULE_TITLE,
      "Module 2",
      "Module 3",
    ]);
    const mids = detail.modules.map((m: { id: string }) => m.id);
    detail = (
      await http().put(
        `/api/courses/${c.course.id}/modules/order`,
        { ids: [mids[1], mids[2], mids[0]] },
        { cookie: users.admin.cookie },
      )
    ).body;
    expect(detail.modules.map((m: { title: string }) => m.title)).toEqual([
      "Module 2",
      "Module 3",
      DEFAULT_MODULE_TITLE,
    ]);

    // A lesson moved to another module goes last there.
    const moved = await http().patch(`/api/lessons/${ids[0]}`, { module_id: mids[1] }, { cookie: users.admin.cookie });
    expect(moved.status).toBe(200);
    expect(moved.body.modules[0].lessons.map((l: { title: string }) => l.title)).toEqual(["One"]);
    expect(moved.body.modules[2].lessons.map((l: { title: string }) => l.title)).toEqual(["Three", "Two"]);
    // An edit changes only what it names.
    const edited = await http().patch(
      `/api/lessons/${ids[1]}`,
      { title: "Two, again" },
      { cookie: users.admin.cookie },
    );
    expect(edited.body.modules[2].lessons[1]).toMatchObject({ title: "Two, again", video_url: YT, is_preview: false });
  });
});

describe("drafts and visibility", () => {
  it("shows a draft to owners and admins only, through every endpoint, until it is published", async () => {
    const c = await newCourse({ title: "Secret draft" });
    const lesson = await addLesson(c.modules[0].id);
    const lessonId = lesson.modules[0].lessons[0].id;
    const listed = async (who: keyof typeof users | "anonymous") =>
      (
        await http().get(`/api/communities/${community.id}/courses`, {
          cookie: who === "anonymous" ? undefined : users[who].cookie,
        })
      ).body.items.some((x: { id: string }) => x.id === c.course.id);
    for (const who of ["owner", "admin"] as const) {
      expect(await listed(who), who).toBe(true);
      expect((await http().get(`/api/courses/${c.course.id}`, { cookie: users[who].cookie })).status).toBe(200);
    }
    for (const who of ["anonymous", "moderator", "member", "outsider"] as const) {
      const cookie = who === "anonymous" ? undefined : users[who].cookie;
      expect(await listed(who), who).toBe(false);
      expect((await http().get(`/api/courses/${c.course.id}`, { cookie })).status, who).toBe(404);
      if (cookie) {
        expect((await http().post(`/api/lessons/${lessonId}/complete`, {}, { cookie })).status, who).toBe(404);
        expect((await http().post(`/api/courses/${c.course.id}/purchase`, {}, { cookie })).status, who).toBe(404);
        expect((await http().patch(`/api/courses/${c.course.id}`, { title: "x" }, { cookie })).status, who).toBe(404);
        expect((await http().post(`/api/courses/${c.course.id}/modules`, { title: "x" }, { cookie })).status).toBe(404);
      }
    }
    const published = await http().patch(
      `/api/courses/${c.course.id}`,
      { status: "published" },
      { cookie: users.owner.cookie },
    );
    expect(published.body.course.status).toBe("published");
    expect(await listed("member")).toBe(true);
    expect(await listed("anonymous")).toBe(true);
    // Unpublishing hides it again.
    await http().patch(`/api/courses/${c.course.id}`, { status: "draft" }, { cookie: users.owner.cookie });
    expect(await listed("member")).toBe(false);
  });

  it("keeps a private community's courses from outsiders", async () => {
    const c = await newCourse();
    await http().patch(`/api/courses/${c.course.id}`, { status: "published" }, { cookie: users.owner.cookie });
    const closed = (await http().post("/api/communities", { name: "Closed school" }, { cookie: users.owner.cookie }))
      .body;
    const cc = (
      await http().post(
        `/api/communities/${closed.id}/courses`,
        { title: "Inside", description: "x" },
        { cookie: users.owner.cookie },
      )
    ).body;
    await http().patch(`/api/courses/${cc.course.id}`, { status: "published" }, { cookie: users.owner.cookie });
    await http().patch(`/api/communities/${closed.id}`, { visibility: "private" }, { cookie: users.owner.cookie });
    expect((await http().get(`/api/communities/${closed.id}/courses`, { cookie: users.outsider.cookie })).status).toBe(
      404,
    );
    expect((await http().get(`/api/courses/${cc.course.id}`, { cookie: users.outsider.cookie })).status).toBe(404);
    expect((await http().get(`/api/courses/${cc.course.id}`)).status).toBe(404);
  });
});

describe("learning", () => {
  it("records a completion once and derives progress from completions", async () => {
    const c = await newCourse();
    const moduleId = c.modules[0].id;
    for (const title of ["A", "B", "C", "D"]) await addLesson(moduleId, { title });
    await http().patch(`/api/courses/${c.course.id}`, { status: "published" }, { cookie: users.owner.cookie });
    const detail = (await http().get(`/api/courses/${c.course.id}`, { cookie: users.member.cookie })).body;
    const [a, b] = detail.modules[0].lessons;
    const first = await http().post(`/api/lessons/${a.id}/complete`, {}, { cookie: users.member.cookie });
    expect(first.body).toMatchObject({ lessons_count: 4, completed_count: 1, progress: 25 });
    const again = await http().post(`/api/lessons/${a.id}/complete`, {}, { cookie: users.member.cookie });
    expect(again.body).toMatchObject({ completed_count: 1, progress: 25 });
    await http().post(`/api/lessons/${b.id}/complete`, {}, { cookie: users.member.cookie });
    const rows = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM lesson_completions WHERE user_id = $1 AND course_id = $2`,
      [users.member.id, c.course.id],
    );
    expect(rows.rows[0].n).toBe(2);
    const list = (await http().get(`/api/communities/${community.id}/courses`, { cookie: users.member.cookie })).body;
    expect(list.items.find((x: { id: string }) => x.id === c.course.id)).toMatchObject({
      progress: 50,
      completed_count: 2,
    });
    const seen = (await http().get(`/api/courses/${c.course.id}`, { cookie: users.member.cookie })).body;
    expect(seen.modules[0].lessons.map((l: { completed: boolean }) => l.completed)).toEqual([true, true, false, false]);
    // Someone else's progress is their own.
    expect(
      (await http().get(`/api/courses/${c.course.id}`, { cookie: users.moderator.cookie })).body.course.progress,
    ).toBe(0);
    // Non-members of the community cannot take its courses.
    expect((await http().post(`/api/lessons/${a.id}/complete`, {}, { cookie: users.outsider.cookie })).status).toBe(
      403,
    );
  });
});

describe("paid access", () => {
  it("locks paid lessons without access (no video URL, no resources), opens free previews, and unlocks on purchase", async () => {
    const c = await newCourse({ title: "Masterclass", price: 49 });
    const moduleId = c.modules[0].id;
    await addLesson(moduleId, {
      title: "Preview",
      is_preview: true,
      resources: [{ title: "Notes", url: "https://example.com/a" }],
    });
    await addLesson(moduleId, {
      title: "Paid",
      video_url: "https://player.vimeo.com/video/123456789",
      resources: [{ title: "Workbook", url: "https://example.com/secret-workbook" }],
    });
    await http().patch(`/api/courses/${c.course.id}`, { status: "published" }, { cookie: users.owner.cookie });

    const asMember = await http().get(`/api/courses/${c.course.id}`, { cookie: users.member.cookie });
    expect(asMember.body.course.has_access).toBe(false);
    const [preview, paid] = asMember.body.modules[0].lessons;
    expect(preview).toMatchObject({ locked: false, video_url: YT });
    expect(paid).toMatchObject({ locked: true, lock_reason: "purchase", video_url: null, resources: [] });
    expect(JSON.stringify(asMember.body)).not.toContain("123456789");
    expect(JSON.stringify(asMember.body)).not.toContain("secret-workbook");
    expect((await http().post(`/api/lessons/${paid.id}/complete`, {}, { cookie: users.member.cookie })).status).toBe(
      403,
    );
    expect((await http().post(`/api/lessons/${preview.id}/complete`, {}, { cookie: users.member.cookie })).status).toBe(
      200,
    );

    // Anonymous readers of a public community see the outline only.
    const anonymous = (await http().get(`/api/courses/${c.course.id}`)).body;
    expect(
      anonymous.modules[0].lessons.every((l: { locked: boolean; video_url: null }) => l.locked && !l.video_url),
    ).toBe(true);
    expect(anonymous.modules[0].lessons[0].lock_reason).toBe("join");

    // Owners and admins always have access.
    for (const who of ["owner", "admin"] as const) {
      const staff = (await http().get(`/api/courses/${c.course.id}`, { cookie: users[who].cookie })).body;
      expect(staff.modules[0].lessons[1]).toMatchObject({ locked: false });
      expect(staff.modules[0].lessons[1].video_url).toContain("123456789");
    }

    const bought = await http().post(`/api/courses/${c.course.id}/purchase`, {}, { cookie: users.member.cookie });
    expect(bought.status).toBe(200);
    expect(bought.body.course.has_access).toBe(true);
    expect(bought.body.modules[0].lessons[1]).toMatchObject({
      locked: false,
      resources: [{ title: "Workbook", url: "https://example.com/secret-workbook" }],
    });
    const purchase = () =>
      t.database.pool.query(
        `SELECT e.amount, e.currency, e.status, e.provider, e.interval, e.provider_payment_id, e.price_id = p.id AS at_price
           FROM entitlements e JOIN prices p ON p.course_id = e.course_id AND p.active
          WHERE e.user_id = $1 AND e.course_id = $2 AND e.kind = 'course'`,
        [users.member.id, c.course.id],
      );
    expect((await purchase()).rows).toEqual([
      {
        amount: 4900,
        currency: "usd",
        status: "active",
        provider: "simulated",
        interval: "once",
        provider_payment_id: expect.stringMatching(/^sim_pi_/),
        at_price: true,
      },
    ]);
    // Buying twice changes nothing; a free course needs no purchase; outsiders must join first.
    expect(
      (await http().post(`/api/courses/${c.course.id}/purchase`, {}, { cookie: users.member.cookie })).status,
    ).toBe(200);
    expect((await purchase()).rows).toHaveLength(1);
    expect(
      (await http().post(`/api/courses/${c.course.id}/purchase`, {}, { cookie: users.outsider.cookie })).status,
    ).toBe(403);
    const free = await newCourse();
    await http().patch(`/api/courses/${free.course.id}`, { status: "published" }, { cookie: users.owner.cookie });
    const freeBuy = await http().post(`/api/courses/${free.course.id}/purchase`, {}, { cookie: users.member.cookie });
    expect(freeBuy.status).toBe(400);
    expect(freeBuy.body.error.message).toBe(CM.purchaseNotNeeded);
  });

  it("serves a paid lesson's uploaded video only to those with access, and deletes it with the lesson", async () => {
    const video = Buffer.concat([
      Buffer.from("000000186674797069736f6d0000020069736f6d6d703432", "hex"),
      randomBytes(4096),
    ]);
    const up = await upload(
      t,
      "/api/upload",
      users.admin.cookie,
      { name: "l.mp4", type: "video/mp4", data: video },
      {
        communityId: community.id,
        uploadType: "courses",
      },
    );
    expect(up.status).toBe(200);
    const c = await newCourse({ title: "Paid video", price: 10 });
    const created = await addLesson(c.modules[0].id, { title: "Secret", video_url: up.body.url });
    await http().patch(`/api/courses/${c.course.id}`, { status: "published" }, { cookie: users.owner.cookie });
    const get = (cookie?: string) =>
      t.app.inject({ method: "GET", url: up.body.url, headers: cookie ? { cookie } : {} });
    expect((await get()).statusCode).toBe(404);
    expect((await get(users.member.cookie)).statusCode).toBe(404);
    expect((await get(users.admin.cookie)).statusCode).toBe(200);
    await http().post(`/api/courses/${c.course.id}/purchase`, {}, { cookie: users.member.cookie });
    const watched = await get(users.member.cookie);
    expect(watched.statusCode).toBe(200);
    expect(watched.headers["cache-control"]).toBe("private, no-cache");

    // Another community's upload cannot be used as a lesson video.
    const other = (await http().post("/api/communities", { name: "Other school" }, { cookie: users.admin.cookie }))
      .body;
    const foreign = await upload(
      t,
      "/api/upload",
      users.admin.cookie,
      { name: "x.mp4", type: "video/mp4", data: video },
      {
        communityId: other.id,
        uploadType: "courses",
      },
    );
    const refused = await http().post(
      `/api/modules/${c.modules[0].id}/lessons`,
      { title: "Foreign", video_url: foreign.body.url },
      { cookie: users.admin.cookie },
    );
    expect(refused.status).toBe(400);

    await http().delete(`/api/lessons/${created.modules[0].lessons[0].id}`, { cookie: users.admin.cookie });
    expect((await get(users.admin.cookie)).statusCode).toBe(404);
    await t.app.ctx.worker.runOnce();
    expect(await t.app.ctx.storage.head(up.body.path)).toBeNull();
  });
});

describe("thumbnails", () => {
  it("replaces and deletes a course's thumbnail files with it", async () => {
    const sharp = (await import("sharp")).default;
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#c2410c" } })
      .png()
      .toBuffer();
    const up = () =>
      upload(
        t,
        "/api/upload",
        users.admin.cookie,
        { name: "t.png", type: "image/png", data: png },
        {
          communityId: community.id,
          uploadType: "courses",
        },
      );
    const first = (await up()).body;
    const second = (await up()).body;
    const c = await newCourse({ thumbnail_url: first.variants.medium });
    expect(c.course.thumbnail_url).toBe(first.variants.medium);
    await http().patch(
      `/api/courses/${c.course.id}`,
      { thumbnail_url: second.variants.medium },
      { cookie: users.admin.cookie },
    );
    const keys = async () => (await t.database.pool.query(`SELECT key FROM media_files`)).rows.map((r) => r.key);
    expect(await keys()).not.toContain(first.path);
    expect(await keys()).toContain(second.path);
    await http().delete(`/api/courses/${c.course.id}`, { cookie: users.admin.cookie });
    expect(await keys()).not.toContain(second.path);
    await t.app.ctx.worker.runOnce();
    expect(await t.app.ctx.storage.head(second.path)).toBeNull();
    expect(await t.app.ctx.storage.head(first.path)).toBeNull();
  });
});
