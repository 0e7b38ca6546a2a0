import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRIAL_DAYS } from "#shared/billing";
import { MSG } from "#shared/messages";
import type { Viewer } from "#server/context";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { paidSlugCandidate, startTrial } from "./billing.service";

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
const viewerOf = (u: { id: string; email: string }): Viewer => ({
  id: u.id,
  email: u.email,
  name: "Test Creator",
  emailVerified: true,
  twoFactorEnabled: false,
  sessionId: "test",
  profile: { full_name: "Test Creator" },
});

describe("starting a free trial", () => {
  it("records the plan with its 14-day trial and creates a paid community the creator owns", async () => {
    const u = await signedInUser(t, { name: "Jane Maker" });
    const res = await http.post(
      "/api/billing/trial",
      { plan: "monthly", request_id: randomUUID() },
      { cookie: u.cookie },
    );
    expect(res.status).toBe(201);
    const local = u.email.split("@")[0];
    expect(res.body.plan).toBe("monthly");
    expect(res.body.community.slug).toMatch(new RegExp(`^${local}\\d{4}$`));
    const ends = Date.parse(res.body.trial_ends_at);
    expect(Math.abs(ends - (Date.now() + TRIAL_DAYS * DAY))).toBeLessThan(60_000);

    const page = await http.get(`/api/communities/${res.body.community.slug}`, { cookie: u.cookie });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ type: "paid", viewer: { role: "owner" }, name: "Jane Maker's Community" });
    const [row] = (
      await t.database.pool.query(`SELECT plan, trial_ends_at, community_id FROM creator_plans WHERE user_id = $1`, [
        u.id,
      ])
    ).rows;
    expect(row).toMatchObject({ plan: "monthly", community_id: res.body.community.id });
    const { checkout_url, ...plan } = res.body;
    expect(checkout_url).toBeNull();
    expect((await http.get("/api/billing/plan", { cookie: u.cookie })).body).toEqual(plan);
    // The plan went through the simulated provider: once its confirmation is processed, the creator
    // holds a trialing creator-plan subscription at the plan's price.
    while ((await t.app.ctx.worker.runOnce()) > 0);
    const billing = await http.get("/api/billing", { cookie: u.cookie });
    expect(billing.body.subscriptions).toMatchObject([
      { kind: "creator_plan", status: "trialing", amount: 9900, currency: "usd", interval: "month" },
    ]);
    // Members of the new community join it through a checkout.
    const member = await signedInUser(t);
    const join = await http.post(`/api/communities/${plan.community.id}/join`, {}, { cookie: member.cookie });
    expect(join.status).toBe(402);
  });

  it("makes one community for one purchase, even when the submit is doubled at once", async () => {
    const u = await signedInUser(t);
    const body = { plan: "annual", request_id: randomUUID() };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => http.post("/api/billing/trial", body, { cookie: u.cookie })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.community.id)).size).toBe(1);
    const owned = await t.database.pool.query(`SELECT count(*)::int AS n FROM communities WHERE created_by = $1`, [
      u.id,
    ]);
    expect(owned.rows[0].n).toBe(1);
    // A new purchase (another request id) is refused: the trial starts once per account, and the
    // plan, its end and the community stay as they were.
    const before = (await http.get("/api/billing/plan", { cookie: u.cookie })).body;
    const again = await http.post(
      "/api/billing/trial",
      { plan: "monthly", request_id: randomUUID() },
      { cookie: u.cookie },
    );
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "CONFLICT", message: MSG.trialAlreadyStarted });
    expect((await http.get("/api/billing/plan", { cookie: u.cookie })).body).toEqual(before);
    expect(before).toMatchObject({ plan: "annual", community: { id: answers[0].body.community.id } });
  });

  it("tries another number when the slug is taken, up to 10 times", async () => {
    const u = await signedInUser(t);
    const owner = await signedInUser(t);
    const taken: string[] = [];
    for (let i = 0; i < 10; i++) {
      const c = await http.post("/api/communities", { name: `Taken ${i}` }, { cookie: owner.cookie });
      const slug = `busy${1000 + i}`;
      await t.database.pool.query(`UPDATE communities SET slug = $1 WHERE id = $2`, [slug, c.body.id]);
      taken.push(slug);
    }
    // Nine taken numbers, then a free one.
    let n = 0;
    const ninthFree = () => (n < 9 ? taken[n++] : "busy2000");
    const ok = await startTrial({
      ctx: t.app.ctx,
      viewer: viewerOf(u),
      input: { plan: "annual", request_id: randomUUID() },
      candidate: ninthFree,
    });
    expect(ok.community?.slug).toBe("busy2000");
    // Ten taken: the spec's message, and nothing recorded.
    const u2 = await signedInUser(t);
    let m = 0;
    await expect(
      startTrial({
        ctx: t.app.ctx,
        viewer: viewerOf(u2),
        input: { plan: "annual", request_id: randomUUID() },
        candidate: () => taken[m++ % taken.length],
      }),
    ).rejects.toMatchObject({ message: MSG.createCommunityError });
    expect(m).toBe(10);
    expect((await t.database.pool.query(`SELECT 1 FROM creator_plans WHERE user_id = $1`, [u2.id])).rows).toHaveLength(
      0,
    );
  });

  it("takes no card data, and refuses bad input and anonymous callers", async () => {
    const u = await signedInUser(t);
    const id = randomUUID();
    expect((await http.post("/api/billing/trial", { plan: "annual", request_id: id })).status).toBe(401);
    for (const body of [
      { plan: "lifetime", request_id: id },
      { plan: "annual" },
      { plan: "annual", request_id: "x" },
      { plan: "annual", request_id: id, card_number: "4242 4242 4242 4242" },
      { plan: "annual", request_id: id, cvc: "123" },
    ]) {
      expect((await http.post("/api/billing/trial", body, { cookie: u.cookie })).status, JSON.stringify(body)).toBe(
        400,
      );
    }
    expect((await http.get("/api/billing/plan", { cookie: u.cookie })).body).toBeNull();
    expect((await http.get("/api/billing/plan")).status).toBe(401);
  });

  it("builds the slug from the email's local part and four digits", () => {
    for (let i = 0; i < 50; i++) expect(paidSlugCandidate("Jane.Doe+x@example.com")).toMatch(/^jane-doe-x\d{4}$/);
    expect(paidSlugCandidate("@example.com")).toMatch(/^creator\d{4}$/);
  });
});
