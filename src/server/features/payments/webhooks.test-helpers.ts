import { afterAll, beforeAll, expect } from "vitest";
import type { HearthApp } from "#server/app";
import type { PaymentsConfig } from "#server/config";
import { startFakeStripe, type FakeStripe } from "#server/test/fake-stripe";
import type { FakeEvent, FakeSession } from "#server/test/fake-stripe-objects";
import { api, createTestApp, type signedInUser, type TestApp } from "#server/test/harness";
import type { PaymentProvider } from "./provider";
import { paymentProvider } from "./provider-registry";

/*
 * Shared by webhooks.test.ts and webhooks-lifecycle.test.ts: a Hearth app in Stripe mode pointed at
 * the fake Stripe server, and the steps of a member paying through it. Events are taken from the
 * fake's log and POSTed to the webhook as Stripe would (raw body, Stripe-Signature), so each test
 * chooses which events arrive, in which order and how often.
 */

export const WEBHOOK_SECRET = "whsec_hearth";

export type User = Awaited<ReturnType<typeof signedInUser>>;

export type StripeWorld = {
  t: TestApp;
  fake: FakeStripe;
  http: ReturnType<typeof api>;
  provider: PaymentProvider;
};

export function stripePayments(fake: FakeStripe): PaymentsConfig {
  return {
    provider: "stripe",
    secretKey: "sk_test_hearth",
    webhookSecret: WEBHOOK_SECRET,
    livemode: false,
    connect: false,
    platformFeePercent: 0,
    api: fake.api,
  };
}

/** Starts the fake Stripe and a Stripe-mode app before the file's tests; closes both after. */
export function useStripeApp(): StripeWorld {
  const w = {} as StripeWorld;
  beforeAll(async () => {
    w.fake = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
    w.t = await createTestApp({ payments: stripePayments(w.fake) });
    w.http = api(w.t.app);
    w.provider = await paymentProvider(w.t.app.ctx);
  });
  afterAll(async () => {
    await w.t?.close();
    await w.fake?.close();
  });
  return w;
}

/** POSTs a body to the webhook as Stripe does: raw JSON and its Stripe-Signature header. */
export async function postWebhook(app: HearthApp, body: string, signature?: string) {
  const res = await app.inject({
    method: "POST",
    url: "/api/payments/webhook",
    headers: {
      "content-type": "application/json; charset=utf-8",
      ...(signature !== undefined ? { "stripe-signature": signature } : {}),
    },
    payload: body,
  });
  return { status: res.statusCode, body: JSON.parse(res.body || "null") };
}

/** Delivers one of the fake's events, signed with the webhook secret; expects a 200. */
export async function deliver(w: StripeWorld, event: FakeEvent, app = w.t.app) {
  const { body, signature } = w.fake.signed(event);
  const res = await postWebhook(app, body, signature);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { received: true; duplicate: boolean };
}

/** The fake's events emitted since `from` (an index into its log), optionally of some types only. */
export const eventsSince = (w: StripeWorld, from: number, ...types: string[]) =>
  w.fake.events.slice(from).filter((e) => types.length === 0 || types.includes(e.type));

export async function drain(app: HearthApp) {
  while ((await app.ctx.worker.runOnce()) > 0);
}

let seq = 0;
export function tier(over: Record<string, unknown> = {}) {
  return {
    name: "Standard",
    description: "",
    free: false,
    monthly_amount: 1500,
    annual_amount: null,
    trial_days: 0,
    ...over,
  };
}

/** A community whose owner saved paid tiers in the Pricing tab. */
export async function paidCommunity(w: StripeWorld, owner: User, tiers: unknown[] = [tier()]) {
  const res = await w.http.post("/api/communities", { name: `Webhook lab ${++seq}` }, { cookie: owner.cookie });
  expect(res.status).toBe(201);
  const c = res.body as { id: string; slug: string };
  const saved = await w.http.put(
    `/api/communities/${c.id}/pricing`,
    { currency: "eur", grace_days: 7, tiers },
    { cookie: owner.cookie },
  );
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const listed = await w.http.get(`/api/communities/${c.id}/tiers`);
  return { ...c, tiers: listed.body.tiers as { id: string; name: string }[] };
}

/** `POST /api/billing/checkout` for a body; answers Hearth's checkout id and the fake's session. */
export async function startCheckout(w: StripeWorld, u: User, body: Record<string, unknown>) {
  const res = await w.http.post("/api/billing/checkout", body, { cookie: u.cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.provider).toBe("stripe");
  expect(res.body.url.startsWith(`${w.fake.url}/checkout/cs_test_`)).toBe(true);
  const sessionId = (res.body.url as string).split("/").pop()!;
  return { checkoutId: res.body.checkout_id as string, sessionId };
}

/**
 * The member pays at the fake's checkout page; answers the checkout, the subscription made and the
 * events Stripe sent (not delivered yet).
 */
export async function payTier(w: StripeWorld, u: User, c: { id: string; tiers: { id: string }[] }, interval = "month") {
  const started = await startCheckout(w, u, { product: "tier", tier_id: c.tiers[0].id, interval });
  const from = w.fake.events.length;
  const session = await w.fake.completeCheckout(started.sessionId);
  return { ...started, subId: session.subscription!, events: eventsSince(w, from) };
}

/** payTier, with every event delivered and the jobs run. */
export async function subscribe(w: StripeWorld, u: User, c: { id: string; tiers: { id: string }[] }) {
  const paid = await payTier(w, u, c);
  for (const e of paid.events) await deliver(w, e);
  await drain(w.t.app);
  expect(await roleOf(w, c, u)).toBe("member");
  return paid;
}

export const roleOf = async (w: StripeWorld, c: { id: string }, u: User) =>
  (
    await w.t.database.pool.query(`SELECT role FROM community_members WHERE community_id = $1 AND user_id = $2`, [
      c.id,
      u.id,
    ])
  ).rows[0]?.role ?? null;

export const entitlementsOf = async (w: StripeWorld, u: User) =>
  (
    await w.t.database.pool.query(
      `SELECT id, status, price_id, amount, currency, cancel_at_period_end, current_period_end, grace_ends_at,
              provider_subscription_id, provider_payment_id, kind
         FROM entitlements WHERE user_id = $1 ORDER BY created_at`,
      [u.id],
    )
  ).rows;

export const paymentsOf = async (w: StripeWorld, u: User) =>
  (
    await w.t.database.pool.query(
      `SELECT kind, status, amount, currency, provider_ref FROM payments WHERE user_id = $1 ORDER BY created_at`,
      [u.id],
    )
  ).rows;

export const checkoutStatus = async (w: StripeWorld, u: User, checkoutId: string) =>
  (await w.http.get(`/api/billing/checkout/${checkoutId}`, { cookie: u.cookie })).body.status as string;

export const sessionOf = (w: StripeWorld, id: string) => w.fake.object<FakeSession>(id)!;

/** Moves the lapse jobs to now and runs them (a period's or a grace period's end). */
export async function runLapses(w: StripeWorld) {
  await w.t.database.pool.query(`UPDATE jobs SET run_at = now() WHERE queue = 'payments.lapse' AND done_at IS NULL`);
  await drain(w.t.app);
}
