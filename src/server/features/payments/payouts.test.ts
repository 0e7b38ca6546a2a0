import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES as PM } from "#shared/payments";
import { PAYOUT_MESSAGES } from "#shared/payouts";
import { startFakeStripe, type FakeStripe } from "#server/test/fake-stripe";
import type { FakeAccount, FakeSubscription } from "#server/test/fake-stripe-objects";
import { api, createTestApp, ORIGIN, signedInUser, type TestApp } from "#server/test/harness";

// Payouts (issue 18): instance mode (payments go to this Hearth's Stripe account) and Stripe
// Connect against the fake Stripe server: onboarding, account.updated, checkout to the account.

const WEBHOOK_SECRET = "whsec_test";
type User = Awaited<ReturnType<typeof signedInUser>>;
let seq = 0;

async function paidCommunity(http: ReturnType<typeof api>, owner: User) {
  const res = await http.post("/api/communities", { name: `Payout lab ${++seq}` }, { cookie: owner.cookie });
  expect(res.status).toBe(201);
  const c = res.body as { id: string; slug: string };
  const saved = await http.put(
    `/api/communities/${c.id}/pricing`,
    {
      currency: "eur",
      grace_days: 7,
      tiers: [
        { name: "Standard", description: "", free: false, monthly_amount: 2000, annual_amount: null, trial_days: 0 },
      ],
    },
    { cookie: owner.cookie },
  );
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return { ...c, tierId: saved.body.tiers[0].id as string };
}

async function addRole(t: TestApp, c: { id: string }, u: User, role: string) {
  await t.database.pool.query(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)`, [
    c.id,
    u.id,
    role,
  ]);
}

const drain = async (t: TestApp) => {
  while ((await t.app.ctx.worker.runOnce()) > 0);
};

describe("payouts in instance mode (no Connect)", () => {
  let t: TestApp;
  let http: ReturnType<typeof api>;
  beforeAll(async () => {
    t = await createTestApp();
    http = api(t.app);
  });
  afterAll(() => t.close());

  it("payments go to the instance's account: nothing to connect (409)", async () => {
    const owner = await signedInUser(t);
    const c = await paidCommunity(http, owner);
    const res = await http.get(`/api/communities/${c.slug}/payouts`, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      mode: "instance",
      provider: "simulated",
      status: "active",
      fee_percent: 0,
      account: null,
    });
    const connect = await http.post(`/api/communities/${c.id}/payouts/connect`, {}, { cookie: owner.cookie });
    expect(connect.status).toBe(409);
    expect(connect.body.error.message).toBe(PAYOUT_MESSAGES.connectOff);
    const refresh = await http.post(`/api/communities/${c.id}/payouts/refresh`, {}, { cookie: owner.cookie });
    expect(refresh.status).toBe(200);
    expect(refresh.body.mode).toBe("instance");
    expect((await t.database.pool.query(`SELECT 1 FROM payout_accounts`)).rowCount).toBe(0);
  });

  it("the owner only: admin and member 403, an outsider of a private community 404, anonymous 401", async () => {
    const owner = await signedInUser(t);
    const c = await paidCommunity(http, owner);
    const admin = await signedInUser(t);
    const member = await signedInUser(t);
    const outsider = await signedInUser(t);
    await addRole(t, c, admin, "admin");
    await addRole(t, c, member, "member");
    await t.database.pool.query(`UPDATE communities SET visibility = 'private' WHERE id = $1`, [c.id]);
    const calls = [
      (cookie?: string) => http.get(`/api/communities/${c.id}/payouts`, { cookie }),
      (cookie?: string) => http.post(`/api/communities/${c.id}/payouts/connect`, {}, { cookie }),
      (cookie?: string) => http.post(`/api/communities/${c.id}/payouts/refresh`, {}, { cookie }),
    ];
    for (const [i, call] of calls.entries()) {
      expect((await call(admin.cookie)).status, `call ${i}`).toBe(403);
      expect((await call(member.cookie)).status, `call ${i}`).toBe(403);
      expect((await call(outsider.cookie)).status, `call ${i}`).toBe(404);
      expect((await call()).status, `call ${i}`).toBe(401);
    }
  });
});

describe("payouts with Stripe Connect (fake Stripe)", () => {
  let fake: FakeStripe;
  let t: TestApp;
  let http: ReturnType<typeof api>;
  beforeAll(async () => {
    fake = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
    t = await createTestApp({
      payments: {
        provider: "stripe",
        secretKey: "sk_test_x",
        webhookSecret: WEBHOOK_SECRET,
        livemode: false,
        connect: true,
        platformFeePercent: 10,
        api: fake.api,
      },
    });
    http = api(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const checkout = (u: User, tierId: string) =>
    http.post("/api/billing/checkout", { product: "tier", tier_id: tierId, interval: "month" }, { cookie: u.cookie });

  it("onboarding link → onboarding finished → account.updated → active; checkout goes to the account less the fee", async () => {
    const owner = await signedInUser(t);
    const member = await signedInUser(t);
    const c = await paidCommunity(http, owner);
    const before = await http.get(`/api/communities/${c.id}/payouts`, { cookie: owner.cookie });
    expect(before.body).toEqual({
      mode: "connect",
      provider: "stripe",
      status: "not_connected",
      fee_percent: 10,
      account: null,
    });

    // Before onboarding nobody can buy.
    const early = await checkout(member, c.tierId);
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe(PM.connectNeeded);

    const link = await http.post(`/api/communities/${c.slug}/payouts/connect`, {}, { cookie: owner.cookie });
    expect(link.status).toBe(200);
    const accountId = (link.body.url as string).match(/\/onboarding\/(acct_\w+)$/)?.[1];
    expect(accountId, link.body.url).toBeTruthy();
    expect(fake.object<FakeAccount>(accountId!)!.email).toBe(owner.email);
    expect((await http.get(`/api/communities/${c.id}/payouts`, { cookie: owner.cookie })).body).toMatchObject({
      status: "onboarding",
      account: { charges_enabled: false, payouts_enabled: false, details_submitted: false },
    });
    // Asked again ('Continue onboarding'): the same account, a fresh link.
    const again = await http.post(`/api/communities/${c.id}/payouts/connect`, {}, { cookie: owner.cookie });
    expect(again.body.url).toBe(link.body.url);

    // The owner finishes Stripe's form; Stripe sends them back to the Payouts tab.
    const from = fake.events.length;
    const done = await fetch(`${fake.url}/onboarding/${accountId}/complete`, { method: "POST", redirect: "manual" });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`${ORIGIN}/community/${c.slug}?settings=payouts`);
    const updated = fake.events.slice(from).find((e) => e.type === "account.updated");
    expect(updated).toBeTruthy();
    // Not active until Stripe's word is processed.
    expect((await http.get(`/api/communities/${c.id}/payouts`, { cookie: owner.cookie })).body.status).toBe(
      "onboarding",
    );
    const { body, signature } = fake.signed(updated!);
    const hook = await t.app.inject({
      method: "POST",
      url: "/api/payments/webhook",
      headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature },
      payload: body,
    });
    expect(hook.statusCode, hook.body).toBe(200);
    await drain(t);
    expect((await http.get(`/api/communities/${c.id}/payouts`, { cookie: owner.cookie })).body).toMatchObject({
      status: "active",
      account: { charges_enabled: true, payouts_enabled: true, details_submitted: true },
    });

    // Now a checkout goes through, to the owner's account, with the instance's fee.
    const start = await checkout(member, c.tierId);
    expect(start.status, JSON.stringify(start.body)).toBe(201);
    const sessionId = (start.body.url as string).split("/").pop()!;
    const session = await fake.completeCheckout(sessionId);
    const sub = fake.object<FakeSubscription>(session.subscription!)!;
    expect(sub.transfer_data).toEqual({ destination: accountId });
    expect(sub.application_fee_percent).toBe(10);
  });

  it("'Refresh status' re-reads the account from Stripe without a webhook", async () => {
    const owner = await signedInUser(t);
    const c = await paidCommunity(http, owner);
    const link = await http.post(`/api/communities/${c.id}/payouts/connect`, {}, { cookie: owner.cookie });
    const accountId = (link.body.url as string).split("/").pop()!;
    // Details given, but Stripe holds payouts back: restricted.
    const account = fake.object<FakeAccount>(accountId)!;
    account.details_submitted = true;
    account.charges_enabled = true;
    account.payouts_enabled = false;
    expect((await http.get(`/api/communities/${c.id}/payouts`, { cookie: owner.cookie })).body.status).toBe(
      "onboarding",
    );
    const refreshed = await http.post(`/api/communities/${c.id}/payouts/refresh`, {}, { cookie: owner.cookie });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({
      mode: "connect",
      status: "restricted",
      account: { charges_enabled: true, payouts_enabled: false, details_submitted: true },
    });
    account.payouts_enabled = true;
    expect(
      (await http.post(`/api/communities/${c.id}/payouts/refresh`, {}, { cookie: owner.cookie })).body.status,
    ).toBe("active");
  });

  it("two 'Connect Stripe' calls at once make one account", async () => {
    const owner = await signedInUser(t);
    const c = await paidCommunity(http, owner);
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        http.post(`/api/communities/${c.id}/payouts/connect`, {}, { cookie: owner.cookie }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.url)).size).toBe(1);
    const rows = await t.database.pool.query(
      `SELECT provider_account_id FROM payout_accounts WHERE community_id = $1`,
      [c.id],
    );
    expect(rows.rowCount).toBe(1);
    expect(results[0].body.url.endsWith(`/onboarding/${rows.rows[0].provider_account_id}`)).toBe(true);
    // The admin manages settings but not the money.
    const admin = await signedInUser(t);
    await addRole(t, c, admin, "admin");
    expect((await http.post(`/api/communities/${c.id}/payouts/connect`, {}, { cookie: admin.cookie })).status).toBe(
      403,
    );
  });
});
