import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES as PM } from "#shared/payments";
import { api, createTestApp, mailTo, signedInUser, type TestApp } from "#server/test/harness";
import { isSimulated, paymentProvider } from "./provider-registry";
import { receiveEvents } from "./events";

// The simulated provider end to end: checkout, confirmation through the event queue, the billing
// page, cancelling, a failed renewal and its grace period, a course bought and refunded.

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signedInUser>>;
let seq = 0;

async function paidCommunity(owner: User, tiers: unknown[] = [standard()]) {
  const res = await http.post("/api/communities", { name: `Checkout lab ${++seq}` }, { cookie: owner.cookie });
  expect(res.status).toBe(201);
  const c = res.body as { id: string; slug: string };
  const saved = await http.put(
    `/api/communities/${c.id}/pricing`,
    { currency: "eur", grace_days: 7, tiers },
    { cookie: owner.cookie },
  );
  expect(saved.status).toBe(200);
  const listed = await http.get(`/api/communities/${c.id}/tiers`);
  return { ...c, tiers: listed.body.tiers as { id: string; name: string; free: boolean }[] };
}
function standard(over: Record<string, unknown> = {}) {
  return {
    name: "Standard",
    description: "",
    free: false,
    monthly_amount: 1500,
    annual_amount: 15000,
    trial_days: 0,
    ...over,
  };
}
const role = async (c: { id: string }, u: User) =>
  (
    await t.database.pool.query(`SELECT role FROM community_members WHERE community_id = $1 AND user_id = $2`, [
      c.id,
      u.id,
    ])
  ).rows[0]?.role ?? null;
const drain = async () => {
  while ((await t.app.ctx.worker.runOnce()) > 0);
};
async function subscribe(c: { tiers: { id: string }[] }, u: User, interval = "month") {
  const start = await http.post(
    "/api/billing/checkout",
    { product: "tier", tier_id: c.tiers[0].id, interval },
    { cookie: u.cookie },
  );
  expect(start.status).toBe(201);
  expect(start.body.url).toBe(`/billing/checkout/${start.body.checkout_id}`);
  const paid = await http.post(
    `/api/billing/checkout/${start.body.checkout_id}/simulated-payment`,
    {},
    { cookie: u.cookie },
  );
  expect(paid.status).toBe(202);
  await drain();
  return start.body.checkout_id as string;
}
const billing = async (u: User) => (await http.get("/api/billing", { cookie: u.cookie })).body;

describe("a member pays for a tier (simulated provider)", () => {
  it("access starts when the confirmation is processed, not when the form is sent", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await paidCommunity(owner);
    const join = await http.post(`/api/communities/${c.id}/join`, {}, { cookie: member.cookie });
    expect(join.status).toBe(402);
    expect(join.body.error.message).toBe(PM.checkoutNeeded);

    const start = await http.post(
      "/api/billing/checkout",
      { product: "tier", tier_id: c.tiers[0].id, interval: "month" },
      { cookie: member.cookie },
    );
    expect(start.status).toBe(201);
    const id = start.body.checkout_id;
    expect((await http.get(`/api/billing/checkout/${id}`, { cookie: member.cookie })).body).toMatchObject({
      status: "open",
      product: { kind: "tier", amount: 1500, currency: "eur", interval: "month" },
    });
    // Another person cannot see or pay it.
    const other = await signedInUser(t);
    expect((await http.get(`/api/billing/checkout/${id}`, { cookie: other.cookie })).status).toBe(404);
    expect(
      (await http.post(`/api/billing/checkout/${id}/simulated-payment`, {}, { cookie: other.cookie })).status,
    ).toBe(404);

    const paid = await http.post(`/api/billing/checkout/${id}/simulated-payment`, {}, { cookie: member.cookie });
    expect(paid.status).toBe(202);
    expect(await role(c, member)).toBeNull();
    await drain();
    expect(await role(c, member)).toBe("member");
    expect((await http.get(`/api/billing/checkout/${id}`, { cookie: member.cookie })).body.status).toBe("complete");

    const b = await billing(member);
    expect(b.provider).toBe("simulated");
    expect(b.subscriptions).toHaveLength(1);
    expect(b.subscriptions[0]).toMatchObject({ status: "active", open: true, amount: 1500, currency: "eur" });
    expect(b.subscriptions[0].next_charge_at).not.toBeNull();
    expect(b.payments).toMatchObject([{ kind: "charge", status: "succeeded", amount: 1500 }]);
    // A second checkout for the same community is refused.
    const again = await http.post(
      "/api/billing/checkout",
      { product: "tier", tier_id: c.tiers[0].id, interval: "year" },
      { cookie: member.cookie },
    );
    expect(again.status).toBe(409);
  });

  it("refuses amounts from the request, unknown tiers and free tiers", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await paidCommunity(owner, [
      standard(),
      standard({ name: "Free", free: true, monthly_amount: null, annual_amount: null }),
    ]);
    const body = { product: "tier", tier_id: c.tiers[0].id, interval: "month" };
    expect((await http.post("/api/billing/checkout", { ...body, amount: 1 }, { cookie: member.cookie })).status).toBe(
      400,
    );
    expect(
      (await http.post("/api/billing/checkout", { ...body, price_id: c.tiers[0].id }, { cookie: member.cookie }))
        .status,
    ).toBe(400);
    const unknown = await http.post(
      "/api/billing/checkout",
      { ...body, tier_id: "00000000-0000-4000-8000-000000000000" },
      { cookie: member.cookie },
    );
    expect(unknown.status).toBe(404);
    const free = await http.post(
      "/api/billing/checkout",
      { ...body, tier_id: c.tiers[1].id },
      { cookie: member.cookie },
    );
    expect(free.status).toBe(400);
    expect((await http.post("/api/billing/checkout", body)).status).toBe(401);
    // With a free tier, JOIN joins for free.
    expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: member.cookie })).status).toBe(200);
  });

  it("cancelling keeps access until the paid period ends, then the membership goes and posts stay", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await paidCommunity(owner);
    await subscribe(c, member);
    const post = await http.post(
      `/api/communities/${c.id}/posts`,
      { content: "Hello paid friends" },
      { cookie: member.cookie },
    );
    expect(post.status).toBe(201);
    const [sub] = (await billing(member)).subscriptions;
    expect((await http.post(`/api/billing/subscriptions/${sub.id}/cancel`, {}, { cookie: owner.cookie })).status).toBe(
      404,
    );
    expect((await http.post(`/api/billing/subscriptions/${sub.id}/cancel`, {}, { cookie: member.cookie })).status).toBe(
      204,
    );
    const after = (await billing(member)).subscriptions[0];
    expect(after).toMatchObject({ status: "canceled", open: true, cancel_at_period_end: true, next_charge_at: null });
    await drain();
    expect(await role(c, member)).toBe("member");
    // The period ends.
    await t.database.pool.query(
      `UPDATE entitlements SET current_period_end = now() - interval '1 second' WHERE id = $1`,
      [sub.id],
    );
    await t.database.pool.query(`UPDATE jobs SET run_at = now() WHERE queue = 'payments.lapse' AND done_at IS NULL`);
    await drain();
    expect(await role(c, member)).toBeNull();
    expect((await billing(member)).subscriptions[0]).toMatchObject({ status: "expired", open: false });
    const kept = await t.database.pool.query(`SELECT 1 FROM posts WHERE id = $1`, [post.body.id]);
    expect(kept.rowCount).toBe(1);
  });

  it("a failed renewal marks it past due, tells the member, and removes access after the grace period", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await paidCommunity(owner);
    await subscribe(c, member);
    const provider = await paymentProvider(t.app.ctx);
    if (!isSimulated(provider)) throw new Error("simulated expected");
    const subId = (
      await t.database.pool.query(`SELECT provider_subscription_id FROM entitlements WHERE user_id = $1`, [member.id])
    ).rows[0].provider_subscription_id;
    await receiveEvents(t.app.ctx, provider, await provider.renew(subId, { succeed: false }));
    await drain();
    const [sub] = (await billing(member)).subscriptions;
    expect(sub).toMatchObject({ status: "past_due", open: true });
    expect(new Date(sub.grace_ends_at).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect(await role(c, member)).toBe("member");
    expect(
      (await mailTo(t, member.email)).some((m) => m.subject.includes("payment") && m.subject.includes("failed")),
    ).toBe(true);
    expect((await billing(member)).payments.some((p: { status: string }) => p.status === "failed")).toBe(true);

    // Recovered: a paid renewal brings it back to active.
    await receiveEvents(t.app.ctx, provider, await provider.renew(subId, { succeed: true }));
    await drain();
    expect((await billing(member)).subscriptions[0]).toMatchObject({ status: "active", grace_ends_at: null });

    // Failed again, and the grace period runs out.
    await receiveEvents(t.app.ctx, provider, await provider.renew(subId, { succeed: false }));
    await drain();
    await t.database.pool.query(
      `UPDATE entitlements SET grace_ends_at = now() - interval '1 second' WHERE user_id = $1`,
      [member.id],
    );
    await t.database.pool.query(`UPDATE jobs SET run_at = now() WHERE queue = 'payments.lapse' AND done_at IS NULL`);
    await drain();
    expect(await role(c, member)).toBeNull();
  });

  it("the same event twice makes one entitlement", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await paidCommunity(owner);
    await subscribe(c, member);
    const events = await t.database.pool.query(`SELECT id, type, object_id FROM payment_events ORDER BY received_at`);
    const provider = await paymentProvider(t.app.ctx);
    for (const e of events.rows)
      await receiveEvents(t.app.ctx, provider, [
        {
          id: e.id,
          type: e.type,
          objectId: e.object_id,
          livemode: false,
          created: new Date(),
          account: null,
          payload: {},
        },
      ]);
    await drain();
    const count = await t.database.pool.query(`SELECT count(*)::int AS n FROM entitlements WHERE user_id = $1`, [
      member.id,
    ]);
    expect(count.rows[0].n).toBe(1);
  });

  it("leaving stops the renewals; coming back within the paid period needs no new payment", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await paidCommunity(owner);
    await subscribe(c, member);
    expect((await http.post(`/api/communities/${c.id}/leave`, {}, { cookie: member.cookie })).status).toBe(200);
    await drain();
    expect(await role(c, member)).toBeNull();
    expect((await billing(member)).subscriptions[0]).toMatchObject({
      status: "canceled",
      cancel_at_period_end: true,
      open: true,
    });
    const back = await http.post(`/api/communities/${c.id}/join`, {}, { cookie: member.cookie });
    expect(back.status).toBe(200);
    expect(await role(c, member)).toBe("member");
    // A ban ends renewals as well, and keeps them out.
    const banned = await http.post(`/api/communities/${c.id}/bans`, { user_id: member.id }, { cookie: owner.cookie });
    expect(banned.status).toBe(204);
    expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: member.cookie })).status).toBe(403);
  });
});
