import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES } from "#shared/payments";
import { api, createTestApp, signedInUser, upload, type TestApp } from "#server/test/harness";

// Course access modes (issue 18): open to members, to chosen tiers, or sold once; read only from
// entitlements.

let t: TestApp;
type User = Awaited<ReturnType<typeof signedInUser>>;
const users = {} as Record<"owner" | "admin" | "member" | "vip" | "outsider", User>;
let community: { id: string; slug: string };
let tiers: { standard: string; vip: string };
const http = () => api(t.app);
const YT = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["owner", "admin", "member", "vip", "outsider"] as const) users[who] = await signedInUser(t);
  community = (await http().post("/api/communities", { name: "Access lab" }, { cookie: users.owner.cookie })).body;
  for (const [who, role] of [
    ["admin", "admin"],
    ["member", "member"],
    ["vip", "member"],
  ] as const) {
    await t.database.pool.query(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)`, [
      community.id,
      users[who].id,
      role,
    ]);
  }
  // The tiers as the Pricing tab saves them (payments/pricing.test.ts covers that route).
  await t.database.pool.query(`UPDATE communities SET currency = 'eur' WHERE id = $1`, [community.id]);
  const made = await t.database.pool.query(
    `INSERT INTO community_tiers (community_id, position, name) VALUES ($1, 0, 'Standard'), ($1, 1, 'VIP')
     RETURNING id, name`,
    [community.id],
  );
  const by = (n: string) => made.rows.find((r) => r.name === n).id as string;
  tiers = { standard: by("Standard"), vip: by("VIP") };
});
afterAll(() => t.close());

async function publishedCourse(body: Record<string, unknown>) {
  const created = await http().post(
    `/api/communities/${community.id}/courses`,
    { title: "Course", description: "About it", ...body },
    { cookie: users.admin.cookie },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const lesson = await http().post(
    `/api/modules/${created.body.modules[0].id}/lessons`,
    { title: "Lesson", video_url: YT },
    { cookie: users.admin.cookie },
  );
  expect(lesson.status).toBe(201);
  await http().patch(`/api/courses/${created.body.course.id}`, { status: "published" }, { cookie: users.owner.cookie });
  return created.body.course as { id: string };
}
const view = async (courseId: string, who: keyof typeof users) =>
  (await http().get(`/api/courses/${courseId}`, { cookie: users[who].cookie })).body;

async function entitle(who: keyof typeof users, fields: Record<string, unknown>) {
  const cols = Object.keys(fields);
  const res = await t.database.pool.query(
    `INSERT INTO entitlements (user_id, provider, ${cols.join(", ")})
     VALUES ($1, 'simulated', ${cols.map((_, i) => `$${i + 2}`).join(", ")}) RETURNING id`,
    [users[who].id, ...Object.values(fields)],
  );
  return res.rows[0].id as string;
}
const setEntitlement = (id: string, fields: Record<string, unknown>) =>
  t.database.pool.query(
    `UPDATE entitlements SET ${Object.keys(fields)
      .map((k, i) => `${k} = $${i + 2}`)
      .join(", ")} WHERE id = $1`,
    [id, ...Object.values(fields)],
  );

describe("creating and editing a course's access", () => {
  it("checks tiers and prices against the community", async () => {
    const post = (body: Record<string, unknown>) =>
      http().post(
        `/api/communities/${community.id}/courses`,
        { title: "T", description: "D", ...body },
        { cookie: users.owner.cookie },
      );
    const noTier = await post({ access: "tiers", tier_ids: [] });
    expect(noTier.status).toBe(400);
    expect(noTier.body.error.message).toBe(PAYMENT_MESSAGES.tierIdsNeeded);
    const other = (await http().post("/api/communities", { name: "Other lab" }, { cookie: users.owner.cookie })).body;
    const foreignTier = await t.database.pool.query(
      `INSERT INTO community_tiers (community_id, position, name) VALUES ($1, 0, 'Theirs') RETURNING id`,
      [other.id],
    );
    const foreign = await post({ access: "tiers", tier_ids: [foreignTier.rows[0].id] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toBe(PAYMENT_MESSAGES.tierNotFound);
    const unpriced = await post({ access: "sold", price: 0 });
    expect(unpriced.status).toBe(400);
    expect(unpriced.body.error.message).toBe(PAYMENT_MESSAGES.coursePriceNeeded);
    const tiny = await post({ access: "sold", price: 0.2 });
    expect(tiny.status).toBe(400);
    expect(tiny.body.error.message).toBe("The smallest price is €0.50");

    const made = await post({ access: "tiers", tier_ids: [tiers.vip] });
    expect(made.status).toBe(201);
    expect(made.body.course).toMatchObject({
      access: "tiers",
      tier_ids: [tiers.vip],
      tier_names: ["VIP"],
      price: 0,
      currency: "eur",
    });
  });

  it("keeps a sold course's price in prices: a change is a new row, leaving sold deactivates it", async () => {
    const c = await publishedCourse({ access: "sold", price: 49 });
    const rows = async () =>
      (
        await t.database.pool.query(
          `SELECT amount, currency, interval, active FROM prices WHERE course_id = $1 ORDER BY created_at`,
          [c.id],
        )
      ).rows;
    expect(await rows()).toEqual([{ amount: 4900, currency: "eur", interval: "once", active: true }]);
    const patched = await http().patch(`/api/courses/${c.id}`, { price: 59 }, { cookie: users.owner.cookie });
    expect(patched.body.course).toMatchObject({ access: "sold", price: 59 });
    // The same price again changes nothing.
    await http().patch(`/api/courses/${c.id}`, { price: 59 }, { cookie: users.owner.cookie });
    expect(await rows()).toEqual([
      { amount: 4900, currency: "eur", interval: "once", active: false },
      { amount: 5900, currency: "eur", interval: "once", active: true },
    ]);
    const open = await http().patch(`/api/courses/${c.id}`, { access: "members" }, { cookie: users.owner.cookie });
    expect(open.body.course).toMatchObject({ access: "members", price: 0 });
    expect((await rows()).every((r) => !r.active)).toBe(true);
    expect((await view(c.id, "member")).course.has_access).toBe(true);
  });
});

describe("who may watch", () => {
  it("a tiers course opens to members with an open entitlement on one of its tiers, until it closes", async () => {
    const c = await publishedCourse({ access: "tiers", tier_ids: [tiers.vip] });
    const locked = await view(c.id, "vip");
    expect(locked.course).toMatchObject({ has_access: false, lock_reason: "tier", tier_names: ["VIP"] });
    expect(locked.modules[0].lessons[0]).toMatchObject({ locked: true, lock_reason: "tier", video_url: null });
    // A membership on another tier does not open it.
    const standard = await entitle("member", {
      kind: "community",
      community_id: community.id,
      tier_id: tiers.standard,
      status: "active",
      currency: "eur",
      interval: "month",
    });
    expect((await view(c.id, "member")).course.has_access).toBe(false);
    await setEntitlement(standard, { status: "expired" });

    const vip = await entitle("vip", {
      kind: "community",
      community_id: community.id,
      tier_id: tiers.vip,
      status: "active",
      currency: "eur",
      interval: "month",
    });
    const open = await view(c.id, "vip");
    expect(open.course).toMatchObject({ has_access: true, lock_reason: null });
    expect(open.modules[0].lessons[0]).toMatchObject({ locked: false, video_url: YT });
    const list = (await http().get(`/api/communities/${community.id}/courses`, { cookie: users.vip.cookie })).body;
    expect(list.items.find((x: { id: string }) => x.id === c.id)).toMatchObject({ has_access: true });

    for (const closed of [
      { status: "expired" },
      { status: "refunded" },
      { status: "past_due", grace_ends_at: new Date(Date.now() - DAY) },
      { status: "canceled", current_period_end: new Date(Date.now() - DAY) },
    ]) {
      await setEntitlement(vip, closed);
      expect((await view(c.id, "vip")).course, JSON.stringify(closed)).toMatchObject({
        has_access: false,
        lock_reason: "tier",
      });
    }
    // Past due within its grace, or cancelled before the period ends, still opens it.
    await setEntitlement(vip, { status: "past_due", grace_ends_at: new Date(Date.now() + DAY) });
    expect((await view(c.id, "vip")).course.has_access).toBe(true);
    await setEntitlement(vip, { status: "canceled", current_period_end: new Date(Date.now() + DAY) });
    expect((await view(c.id, "vip")).course.has_access).toBe(true);
    // Staff always; outsiders are asked to join.
    expect((await view(c.id, "admin")).course.has_access).toBe(true);
    expect((await view(c.id, "owner")).course.has_access).toBe(true);
    expect((await view(c.id, "outsider")).course).toMatchObject({ has_access: false, lock_reason: "join" });
  });

  it("a sold course opens only with an open course entitlement", async () => {
    const c = await publishedCourse({ access: "sold", price: 25 });
    expect((await view(c.id, "member")).course).toMatchObject({
      has_access: false,
      lock_reason: "purchase",
      price: 25,
      currency: "eur",
    });
    // A community membership on any tier does not buy the course.
    await entitle("member", {
      kind: "community",
      community_id: community.id,
      tier_id: tiers.vip,
      status: "active",
      currency: "eur",
      interval: "month",
    });
    expect((await view(c.id, "member")).course.has_access).toBe(false);
    const bought = await http().post(`/api/courses/${c.id}/purchase`, {}, { cookie: users.member.cookie });
    expect(bought.body.course.has_access).toBe(true);
    await t.database.pool.query(
      `UPDATE entitlements SET status = 'refunded' WHERE kind = 'course' AND course_id = $1 AND user_id = $2`,
      [c.id, users.member.id],
    );
    expect((await view(c.id, "member")).course).toMatchObject({ has_access: false, lock_reason: "purchase" });
    expect((await view(c.id, "admin")).course.has_access).toBe(true);
  });

  it("a locked lesson's uploaded file is not served; the tier opens it", async () => {
    const video = Buffer.concat([
      Buffer.from("000000186674797069736f6d0000020069736f6d6d703432", "hex"),
      randomBytes(2048),
    ]);
    const up = await upload(
      t,
      "/api/upload",
      users.admin.cookie,
      { name: "l.mp4", type: "video/mp4", data: video },
      { communityId: community.id, uploadType: "courses" },
    );
    expect(up.status).toBe(200);
    const created = await http().post(
      `/api/communities/${community.id}/courses`,
      { title: "Tier video", description: "D", access: "tiers", tier_ids: [tiers.standard] },
      { cookie: users.admin.cookie },
    );
    await http().post(
      `/api/modules/${created.body.modules[0].id}/lessons`,
      { title: "Secret", video_url: up.body.url },
      { cookie: users.admin.cookie },
    );
    await http().patch(
      `/api/courses/${created.body.course.id}`,
      { status: "published" },
      { cookie: users.owner.cookie },
    );
    const get = (who: keyof typeof users) =>
      t.app.inject({ method: "GET", url: up.body.url, headers: { cookie: users[who].cookie } });
    expect((await get("outsider")).statusCode).toBe(404);
    expect((await get("vip")).statusCode).toBe(404);
    expect((await get("admin")).statusCode).toBe(200);
    await entitle("vip", {
      kind: "community",
      community_id: community.id,
      tier_id: tiers.standard,
      status: "trialing",
      currency: "eur",
      interval: "month",
    });
    expect((await get("vip")).statusCode).toBe(200);
  });
});
