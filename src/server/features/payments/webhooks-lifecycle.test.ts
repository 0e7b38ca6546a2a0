import { describe, expect, it, vi } from "vitest";
import { mailTo, signedInUser } from "#server/test/harness";
import { reconcile } from "./events";
import {
  checkoutStatus,
  deliver,
  drain,
  entitlementsOf,
  eventsSince,
  paidCommunity,
  paymentsOf,
  payTier,
  roleOf,
  runLapses,
  sessionOf,
  startCheckout,
  subscribe,
  tier,
  useStripeApp,
  type User,
} from "./webhooks.test-helpers";

// A Stripe subscription's life through webhooks (issue 18): cancelled from the portal, ended,
// renewal failed then recovered, grace period expiry; a course refunded; a price change; and the
// reconciliation that repairs what no event told Hearth.

const w = useStripeApp();

/** Runs a fake control and delivers every event it emitted, then the jobs. */
async function stripeDoes(action: () => Promise<unknown>) {
  const from = w.fake.events.length;
  await action();
  for (const e of eventsSince(w, from)) await deliver(w, e);
  await drain(w.t.app);
}
const billing = async (u: User) => (await w.http.get("/api/billing", { cookie: u.cookie })).body;

describe("stripe subscription: updated and deleted", () => {
  it("cancelled in the portal keeps access until the period ends; the end removes the membership, posts stay", async () => {
    const owner = await signedInUser(w.t);
    const member = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const paid = await subscribe(w, member, c);
    const post = await w.http.post(
      `/api/communities/${c.id}/posts`,
      { content: "Paid hello" },
      { cookie: member.cookie },
    );
    expect(post.status).toBe(201);

    const portal = await w.http.post("/api/billing/portal", {}, { cookie: member.cookie });
    expect(portal.status).toBe(200);
    expect(portal.body.url.startsWith(`${w.fake.url}/portal/`)).toBe(true);
    await stripeDoes(async () => {
      const res = await fetch(`${portal.body.url}/cancel`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `subscription=${paid.subId}`,
        redirect: "manual",
      });
      expect(res.status).toBe(303);
    });
    const [e] = await entitlementsOf(w, member);
    expect(e).toMatchObject({ status: "canceled", cancel_at_period_end: true });
    expect(new Date(e.current_period_end).getTime()).toBeGreaterThan(Date.now() + 20 * 86_400_000);
    expect(await roleOf(w, c, member)).toBe("member");
    expect((await billing(member)).subscriptions[0]).toMatchObject({ status: "canceled", open: true });

    await stripeDoes(() => w.fake.endPeriod(paid.subId));
    expect(await entitlementsOf(w, member)).toMatchObject([{ status: "expired" }]);
    expect(await roleOf(w, c, member)).toBeNull();
    const kept = await w.t.database.pool.query(`SELECT 1 FROM posts WHERE id = $1`, [post.body.id]);
    expect(kept.rowCount).toBe(1);
  });
});

describe("stripe subscription: a failed renewal", () => {
  it("marks it past due and tells the member; a paid retry recovers it; the grace period's end removes access", async () => {
    const owner = await signedInUser(w.t);
    const member = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const paid = await subscribe(w, member, c);

    await stripeDoes(() => w.fake.renew(paid.subId, { succeed: false }));
    const [pastDue] = await entitlementsOf(w, member);
    expect(pastDue.status).toBe("past_due");
    expect(new Date(pastDue.grace_ends_at).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect(await roleOf(w, c, member)).toBe("member");
    const told = await w.t.database.pool.query(
      `SELECT title FROM notifications WHERE user_id = $1 AND data->>'billing' = 'true'`,
      [member.id],
    );
    expect(told.rows).toHaveLength(1);
    expect(told.rows[0].title).toContain("failed");
    expect((await mailTo(w.t, member.email)).filter((m) => m.subject.includes("failed"))).toHaveLength(1);
    expect((await paymentsOf(w, member)).map((p) => p.status)).toEqual(["succeeded", "failed"]);

    await stripeDoes(() => w.fake.renew(paid.subId, { succeed: true }));
    expect(await entitlementsOf(w, member)).toMatchObject([{ status: "active", grace_ends_at: null }]);
    expect((await paymentsOf(w, member)).map((p) => p.status)).toEqual(["succeeded", "failed", "succeeded"]);

    // Fails again, and the grace period runs out while Stripe keeps retrying (still past due there).
    await stripeDoes(() => w.fake.renew(paid.subId, { succeed: false }));
    expect(await entitlementsOf(w, member)).toMatchObject([{ status: "past_due" }]);
    await w.t.database.pool.query(
      `UPDATE entitlements SET grace_ends_at = now() - interval '1 second' WHERE user_id = $1`,
      [member.id],
    );
    await runLapses(w);
    expect(await entitlementsOf(w, member)).toMatchObject([{ status: "expired" }]);
    expect(await roleOf(w, c, member)).toBeNull();

    // Neither a late event of the still past-due subscription nor the hourly reconciliation starts a new grace period.
    const updated = w.fake.events.filter((e) => e.type === "customer.subscription.updated").at(-1)!;
    await deliver(w, { ...updated, id: `${updated.id}_late` });
    await drain(w.t.app);
    await reconcile(w.t.app.ctx, w.provider);
    expect(await entitlementsOf(w, member)).toMatchObject([{ status: "expired" }]);
    expect(await roleOf(w, c, member)).toBeNull();

    // Paying at last (a successful retry) opens it again.
    await stripeDoes(() => w.fake.renew(paid.subId, { succeed: true }));
    expect(await entitlementsOf(w, member)).toMatchObject([{ status: "active" }]);
    expect(await roleOf(w, c, member)).toBe("member");
  });
});

describe("stripe one-time purchase: a refund", () => {
  it("locks the course again", async () => {
    const owner = await signedInUser(w.t);
    const member = await signedInUser(w.t);
    const c = (await w.http.post("/api/communities", { name: "Course shop" }, { cookie: owner.cookie })).body;
    expect((await w.http.post(`/api/communities/${c.id}/join`, {}, { cookie: member.cookie })).status).toBe(200);
    const made = await w.http.post(
      `/api/communities/${c.id}/courses`,
      { title: "Sold course", description: "Worth it", access: "sold", price: 25 },
      { cookie: owner.cookie },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const courseId = made.body.course.id as string;
    await w.http.post(
      `/api/modules/${made.body.modules[0].id}/lessons`,
      { title: "Lesson", video_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
      { cookie: owner.cookie },
    );
    expect(
      (await w.http.patch(`/api/courses/${courseId}`, { status: "published" }, { cookie: owner.cookie })).status,
    ).toBe(200);
    const access = async () => (await w.http.get(`/api/courses/${courseId}`, { cookie: member.cookie })).body.course;
    expect(await access()).toMatchObject({ has_access: false, lock_reason: "purchase" });

    const { sessionId } = await startCheckout(w, member, { product: "course", course_id: courseId });
    expect(sessionOf(w, sessionId)).toMatchObject({ mode: "payment", amount_total: 2500 });
    await stripeDoes(() => w.fake.completeCheckout(sessionId));
    expect(await access()).toMatchObject({ has_access: true });
    const [bought] = await entitlementsOf(w, member);
    expect(bought).toMatchObject({ kind: "course", status: "active" });

    await stripeDoes(() => w.provider.refund(bought.provider_payment_id));
    expect(await access()).toMatchObject({ has_access: false, lock_reason: "purchase" });
    expect(await entitlementsOf(w, member)).toMatchObject([{ kind: "course", status: "refunded" }]);
    expect((await paymentsOf(w, member)).map((p) => [p.kind, p.amount])).toEqual([
      ["charge", 2500],
      ["refund", 2500],
    ]);
    // Still a member of the (free) community: only the course closed.
    expect(await roleOf(w, c, member)).toBe("member");
  });
});

describe("stripe prices: a price change", () => {
  it("keeps an existing subscriber's price; a new checkout charges the new one", async () => {
    const owner = await signedInUser(w.t);
    const early = await signedInUser(w.t);
    const late = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const paid = await subscribe(w, early, c);
    const [before] = await entitlementsOf(w, early);

    const saved = await w.http.put(
      `/api/communities/${c.id}/pricing`,
      { currency: "eur", grace_days: 7, tiers: [tier({ id: c.tiers[0].id, monthly_amount: 2500 })] },
      { cookie: owner.cookie },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // The next renewal still charges the subscriber's own price.
    await stripeDoes(() => w.fake.renew(paid.subId, { succeed: true }));
    const [after] = await entitlementsOf(w, early);
    expect(after).toMatchObject({ price_id: before.price_id, amount: 1500, status: "active" });
    expect((await paymentsOf(w, early)).map((p) => p.amount)).toEqual([1500, 1500]);

    const { sessionId } = await startCheckout(w, late, { product: "tier", tier_id: c.tiers[0].id, interval: "month" });
    expect(sessionOf(w, sessionId)).toMatchObject({ amount_total: 2500, currency: "eur" });
    await stripeDoes(() => w.fake.completeCheckout(sessionId));
    const [fresh] = await entitlementsOf(w, late);
    expect(fresh).toMatchObject({ amount: 2500, status: "active" });
    expect(fresh.price_id).not.toBe(before.price_id);
    expect(await paymentsOf(w, late)).toMatchObject([{ amount: 2500 }]);
  });
});

describe("stripe reconciliation", () => {
  it("repairs a subscription changed without an event and a missed checkout.session.completed, and logs each", async () => {
    const owner = await signedInUser(w.t);
    const drifted = await signedInUser(w.t);
    const missed = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const paid = await subscribe(w, drifted, c);
    // Cancelled at Stripe; no event reaches Hearth.
    w.fake.setSubscriptionStatus(paid.subId, "canceled");
    // Paid at Stripe; the webhooks never arrive.
    const lost = await payTier(w, missed, c);
    expect(await roleOf(w, c, missed)).toBeNull();

    const warn = vi.spyOn(w.t.app.ctx.log, "warn");
    try {
      const result = await reconcile(w.t.app.ctx, w.provider);
      expect(result.repaired).toBeGreaterThanOrEqual(2);
      const logged = warn.mock.calls.map((call) => JSON.stringify(call));
      expect(logged.some((l) => l.includes(paid.subId) && l.includes("reconciliation"))).toBe(true);
      expect(logged.some((l) => l.includes(lost.subId) && l.includes("reconciliation"))).toBe(true);
    } finally {
      warn.mockRestore();
    }
    expect(await entitlementsOf(w, drifted)).toMatchObject([{ status: "expired" }]);
    expect(await roleOf(w, c, drifted)).toBeNull();
    expect(await entitlementsOf(w, missed)).toMatchObject([{ status: "active", provider_subscription_id: lost.subId }]);
    expect(await roleOf(w, c, missed)).toBe("member");
    // The member's waiting page sees it confirmed.
    expect(await checkoutStatus(w, missed, lost.checkoutId)).toBe("complete");
    // A second pass finds nothing left to repair.
    expect((await reconcile(w.t.app.ctx, w.provider)).repaired).toBe(0);
  });
});
