import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "#server/test/fake-stripe";
import type { FakeEvent, FakePrice, FakeProduct, FakeSubscription } from "#server/test/fake-stripe-objects";
import type { CheckoutRequest, PaymentProvider } from "./provider";
import { createStripeProvider, WebhookSignatureError, type StripePaymentsConfig } from "./stripe-provider";

/*
 * The stripe provider against the fake Stripe server (no network, no database): each method's
 * request reaches the fake through the official package and comes back normalized.
 */

const WEBHOOK_SECRET = "whsec_test_provider";
let fake: FakeStripe;
let provider: PaymentProvider;
const config = (): StripePaymentsConfig => ({
  provider: "stripe",
  secretKey: "sk_test_provider",
  webhookSecret: WEBHOOK_SECRET,
  livemode: false,
  connect: false,
  platformFeePercent: 0,
  api: fake.api,
});

beforeAll(async () => {
  fake = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
  provider = createStripeProvider(config());
});
afterAll(() => fake.close());

let n = 0;
function price(over: Partial<CheckoutRequest["price"]> = {}): CheckoutRequest["price"] {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    providerPriceId: null,
    amount: 999,
    currency: "eur",
    interval: "month",
    trialDays: 0,
    productName: "Standard",
    ...over,
  };
}

function request(p: CheckoutRequest["price"], over: Partial<CheckoutRequest> = {}): CheckoutRequest {
  n += 1;
  return {
    checkoutId: `10000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    userId: "20000000-0000-4000-8000-000000000001",
    email: "member@example.com",
    customerId: null,
    price: p,
    successUrl: "https://hearth.test/checkout/done?session={CHECKOUT_SESSION_ID}",
    cancelUrl: "https://hearth.test/checkout/cancelled",
    connect: null,
    ...over,
  };
}

/** The events emitted since `from` (an index into fake.events), by type. */
const typesSince = (from: number) => fake.events.slice(from).map((e) => e.type);
const lastEvent = (type: string): FakeEvent => fake.events.filter((e) => e.type === type).at(-1)!;

/** Starts and completes a checkout; returns the session id and the subscription or payment made. */
async function paid(p: CheckoutRequest["price"], over: Partial<CheckoutRequest> = {}) {
  const req = request(p, over);
  const { sessionId } = await provider.createCheckout(req);
  await fake.completeCheckout(sessionId);
  const checkout = (await provider.getCheckout(sessionId))!;
  return { req, sessionId, checkout };
}

describe("stripe provider: prices", () => {
  it("creates a recurring product and price once, and keeps a given provider price", async () => {
    const p = price({ amount: 4900, currency: "usd", interval: "year", productName: "VIP" });
    const first = await provider.ensurePrice(p);
    const again = await provider.ensurePrice(p);
    expect(first).toMatch(/^price_/);
    // Same Hearth price, same idempotency key: the second call (another process) gets the same price.
    expect(again).toBe(first);
    const stored = fake.object<FakePrice>(first)!;
    expect(stored).toMatchObject({ unit_amount: 4900, currency: "usd", recurring: { interval: "year" } });
    const product = fake.object<FakeProduct>(stored.product)!;
    expect(product.name).toBe("VIP");
    expect(await provider.ensurePrice({ ...price(), providerPriceId: "price_kept" })).toBe("price_kept");
  });

  it("makes one price when two processes ask at once", async () => {
    const p = price();
    const other = createStripeProvider({ ...config(), secretKey: "sk_test_provider" });
    const [a, b] = await Promise.all([provider.ensurePrice(p), other.ensurePrice(p)]);
    expect(b).toBe(a);
  });

  it("creates a one-time price for a course", async () => {
    const id = await provider.ensurePrice(price({ interval: "once", amount: 4900 }));
    expect(fake.object(id)).toMatchObject({ type: "one_time", recurring: null, unit_amount: 4900 });
  });
});

describe("stripe provider: checkout and subscriptions", () => {
  it("starts a subscription checkout with Hearth's metadata, then reads the paid subscription and invoice", async () => {
    const p = price();
    const req = request(p);
    const from = fake.events.length;
    const started = await provider.createCheckout(req);
    expect(started.sessionId).toMatch(/^cs_test_/);
    expect(started.url).toBe(`${fake.url}/checkout/${started.sessionId}`);
    expect(started.customerId).toBeNull();
    // The same checkout twice (a retried request) is one session.
    expect((await provider.createCheckout(req)).sessionId).toBe(started.sessionId);

    const open = await provider.getCheckout(started.sessionId);
    expect(open).toMatchObject({ status: "open", paymentStatus: "unpaid", subscriptionId: null, amountTotal: 999 });
    const metadata = { checkout_id: req.checkoutId, user_id: req.userId, price_id: p.id };
    expect(open!.metadata).toEqual(metadata);

    await fake.completeCheckout(started.sessionId);
    expect(typesSince(from)).toEqual([
      "checkout.session.completed",
      "customer.subscription.created",
      "invoice.paid",
      "invoice.payment_succeeded",
    ]);
    const done = (await provider.getCheckout(started.sessionId))!;
    expect(done).toMatchObject({ status: "complete", paymentStatus: "paid", currency: "eur", paymentId: null });
    expect(done.customerId).toMatch(/^cus_/);
    expect(done.subscriptionId).toMatch(/^sub_/);

    const s = (await provider.getSubscription(done.subscriptionId!))!;
    expect(s).toMatchObject({
      id: done.subscriptionId,
      customerId: done.customerId,
      status: "active",
      providerPriceId: p.providerPriceId ?? (await provider.ensurePrice(p)),
      cancelAtPeriodEnd: false,
      trialEnd: null,
      metadata,
    });
    const monthAhead = new Date();
    monthAhead.setUTCMonth(monthAhead.getUTCMonth() + 1);
    expect(Math.abs(s.currentPeriodEnd.getTime() - monthAhead.getTime())).toBeLessThan(5_000);

    const invoiceId = lastEvent("invoice.paid").data.object.id;
    const invoice = (await provider.getInvoice(invoiceId))!;
    expect(invoice).toMatchObject({
      id: invoiceId,
      subscriptionId: s.id,
      customerId: s.customerId,
      status: "paid",
      amountPaid: 999,
      amountDue: 999,
      currency: "eur",
      fee: 0,
    });
    expect(invoice.receiptUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/invoices\/in_/);
    expect((await fetch(invoice.receiptUrl!)).status).toBe(200);
  });

  it("starts a trial: trialing, no payment, no invoice", async () => {
    const from = fake.events.length;
    const { checkout } = await paid(price({ trialDays: 14 }));
    expect(checkout).toMatchObject({ status: "complete", paymentStatus: "no_payment_required", amountTotal: 0 });
    expect(typesSince(from)).toEqual(["checkout.session.completed", "customer.subscription.created"]);
    const s = (await provider.getSubscription(checkout.subscriptionId!))!;
    expect(s.status).toBe("trialing");
    expect(s.trialEnd).not.toBeNull();
    expect(Math.abs(s.trialEnd!.getTime() - (Date.now() + 14 * 86_400_000))).toBeLessThan(5_000);
    expect(s.currentPeriodEnd.getTime()).toBe(s.trialEnd!.getTime());
  });

  it("reuses a customer", async () => {
    const first = await paid(price());
    const { sessionId, customerId } = await provider.createCheckout(
      request(price(), { customerId: first.checkout.customerId }),
    );
    expect(customerId).toBe(first.checkout.customerId);
    await fake.completeCheckout(sessionId);
    expect((await provider.getCheckout(sessionId))!.customerId).toBe(first.checkout.customerId);
  });

  it("a failed renewal makes the subscription past due with an open invoice; a retry recovers it", async () => {
    const { checkout } = await paid(price());
    const subId = checkout.subscriptionId!;
    const before = (await provider.getSubscription(subId))!.currentPeriodEnd;

    const from = fake.events.length;
    await fake.renew(subId, { succeed: false });
    expect(typesSince(from)).toEqual(["invoice.payment_failed", "customer.subscription.updated"]);
    const s = (await provider.getSubscription(subId))!;
    expect(s.status).toBe("past_due");
    expect(s.currentPeriodEnd.getTime()).toBeGreaterThan(before.getTime());
    const open = (await provider.getInvoice(lastEvent("invoice.payment_failed").data.object.id))!;
    expect(open).toMatchObject({ status: "open", amountPaid: 0, amountDue: 999, subscriptionId: subId });

    await fake.renew(subId, { succeed: true });
    expect((await provider.getSubscription(subId))!.status).toBe("active");
    expect((await provider.getInvoice(open.id))!.status).toBe("paid");
    // The retry paid the same period's invoice: the period did not move again.
    expect((await provider.getSubscription(subId))!.currentPeriodEnd).toEqual(s.currentPeriodEnd);
  });

  it("cancels at the period's end, resumes, and ends", async () => {
    const { checkout } = await paid(price());
    const subId = checkout.subscriptionId!;
    const cancelled = await provider.setCancelAtPeriodEnd(subId, true);
    expect(cancelled).toMatchObject({ id: subId, status: "active", cancelAtPeriodEnd: true });
    expect(lastEvent("customer.subscription.updated").data.object).toMatchObject({
      id: subId,
      cancel_at_period_end: true,
    });
    expect((await provider.setCancelAtPeriodEnd(subId, false)).cancelAtPeriodEnd).toBe(false);
    await provider.setCancelAtPeriodEnd(subId, true);

    await fake.endPeriod(subId);
    expect(lastEvent("customer.subscription.deleted").data.object).toMatchObject({ id: subId, status: "canceled" });
    expect((await provider.getSubscription(subId))!.status).toBe("canceled");
  });

  it("changes a subscription's price", async () => {
    const { checkout } = await paid(price());
    const annual = await provider.ensurePrice(price({ interval: "year", amount: 9900 }));
    const changed = await provider.changePrice(checkout.subscriptionId!, annual);
    expect(changed.providerPriceId).toBe(annual);
    expect((await provider.getSubscription(checkout.subscriptionId!))!.providerPriceId).toBe(annual);
    const sub = fake.object<FakeSubscription>(checkout.subscriptionId!)!;
    expect(sub.items.data).toHaveLength(1);
    await expect(provider.changePrice(checkout.subscriptionId!, "price_unknown")).rejects.toThrow(/No such price/);
  });

  it("lists every live subscription across pages, leaving out ended ones", async () => {
    const live = await paid(price());
    const ended = await paid(price());
    await fake.cancelNow(ended.checkout.subscriptionId!);
    // More than one page of 100, so auto-pagination (starting_after, has_more) is exercised.
    for (let i = 0; i < 101; i++) await paid(price());
    const ids: string[] = [];
    for await (const s of provider.listSubscriptions()) ids.push(s.id);
    expect(ids).toContain(live.checkout.subscriptionId);
    expect(ids).not.toContain(ended.checkout.subscriptionId);
    expect(new Set(ids).size).toBe(ids.length);
    const all = fake.events.filter((e) => e.type === "customer.subscription.created").map((e) => e.data.object.id);
    expect(ids.length).toBe(all.length - fake.events.filter((e) => e.type === "customer.subscription.deleted").length);
  });

  it("sees a change made behind Hearth's back (no event)", async () => {
    const { checkout } = await paid(price());
    const from = fake.events.length;
    fake.setSubscriptionStatus(checkout.subscriptionId!, "unpaid");
    expect(fake.events.length).toBe(from);
    expect((await provider.getSubscription(checkout.subscriptionId!))!.status).toBe("unpaid");
  });

  it("opens the customer portal", async () => {
    const { checkout } = await paid(price());
    const url = await provider.portalUrl(checkout.customerId!, "https://hearth.test/billing");
    expect(url).toMatch(new RegExp(`^${fake.url}/portal/bps_`));
    const html = await (await fetch(url!)).text();
    expect(html).toContain("Cancel plan");
    expect(html).toContain(checkout.subscriptionId);
  });
});

describe("stripe provider: one-time payments and refunds", () => {
  it("sells once, then refunds the payment", async () => {
    const p = price({ interval: "once", amount: 4900 });
    const req = request(p);
    const { sessionId } = await provider.createCheckout(req);
    const from = fake.events.length;
    await fake.completeCheckout(sessionId);
    expect(typesSince(from)).toEqual(["checkout.session.completed", "payment_intent.succeeded"]);
    const checkout = (await provider.getCheckout(sessionId))!;
    expect(checkout).toMatchObject({
      status: "complete",
      paymentStatus: "paid",
      subscriptionId: null,
      amountTotal: 4900,
    });
    expect(checkout.paymentId).toMatch(/^pi_/);
    expect(checkout.customerId).toMatch(/^cus_/);
    expect(fake.object(checkout.paymentId!)).toMatchObject({ metadata: { checkout_id: req.checkoutId } });

    const refund = await provider.refund(checkout.paymentId!);
    expect(refund).toMatchObject({ paymentId: checkout.paymentId, amount: 4900, currency: "eur", status: "succeeded" });
    expect(refund.id).toMatch(/^re_/);
    expect(lastEvent("charge.refunded").data.object).toMatchObject({
      payment_intent: checkout.paymentId,
      refunded: true,
      amount_refunded: 4900,
    });
    expect(lastEvent("refund.created").data.object.id).toBe(refund.id);
    expect(await provider.getRefund(refund.id)).toEqual(refund);
    // Refunding again (a double click) is the same refund, not an error or a second one.
    expect((await provider.refund(checkout.paymentId!)).id).toBe(refund.id);
  });
});

describe("stripe provider: Connect", () => {
  it("creates an account, an onboarding link, and reads it after onboarding", async () => {
    const account = await provider.createAccount("owner@example.com");
    expect(account).toEqual({ id: account.id, chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false });
    expect(account.id).toMatch(/^acct_/);
    const link = await provider.accountLink(account.id, "https://hearth.test/refresh", "https://hearth.test/return");
    expect(link).toBe(`${fake.url}/onboarding/${account.id}`);

    // The onboarding page's button, as the owner's browser posts it.
    const res = await fetch(`${link}/complete`, { method: "POST", redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("https://hearth.test/return");
    const updated = lastEvent("account.updated");
    expect(updated.account).toBe(account.id);
    expect(await provider.getAccount(account.id)).toEqual({
      id: account.id,
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true,
    });
  });

  it("sends destination charges and the instance's fee", async () => {
    const account = await provider.createAccount("owner2@example.com");
    const connect = { accountId: account.id, feePercent: 10 };
    const { checkout } = await paid(price({ amount: 2000 }), { connect });
    const sub = fake.object<FakeSubscription>(checkout.subscriptionId!)!;
    expect(sub).toMatchObject({ transfer_data: { destination: account.id }, application_fee_percent: 10 });
    const invoice = (await provider.getInvoice(sub.latest_invoice!))!;
    expect(invoice.fee).toBe(200);

    const once = await paid(price({ amount: 4999, interval: "once" }), { connect });
    expect(fake.object(once.checkout.paymentId!)).toMatchObject({
      transfer_data: { destination: account.id },
      application_fee_amount: 500,
    });
  });
});

describe("stripe provider: webhooks", () => {
  it("accepts a signed event and normalizes it", async () => {
    const { checkout } = await paid(price());
    const event = lastEvent("customer.subscription.created");
    const { body, signature } = fake.signed(event);
    const verified = provider.verifyEvent(Buffer.from(body), signature);
    expect(verified).toMatchObject({
      id: event.id,
      type: "customer.subscription.created",
      livemode: false,
      objectId: checkout.subscriptionId,
      account: null,
      created: new Date(event.created * 1000),
    });
    expect(verified.payload).toEqual(JSON.parse(body));
  });

  it("names the subscription of a checkout's, an invoice's and a subscription's event (the queue's group)", async () => {
    const { checkout } = await paid(price());
    for (const type of ["checkout.session.completed", "customer.subscription.created", "invoice.paid"]) {
      const { body, signature } = fake.signed(lastEvent(type));
      expect(provider.verifyEvent(Buffer.from(body), signature).groupRef, type).toBe(checkout.subscriptionId);
    }
  });

  it("keeps the Connect account of an account event", async () => {
    const account = await provider.createAccount("owner3@example.com");
    await fake.completeOnboarding(account.id);
    const { body, signature } = fake.signed(lastEvent("account.updated"));
    expect(provider.verifyEvent(Buffer.from(body), signature)).toMatchObject({
      account: account.id,
      objectId: account.id,
    });
  });

  it("refuses a missing header, another secret's signature and a tampered body", () => {
    const { body, signature } = fake.signed(fake.events[0]);
    expect(() => provider.verifyEvent(Buffer.from(body), undefined)).toThrow(WebhookSignatureError);
    expect(() => provider.verifyEvent(Buffer.from(body), "")).toThrow(WebhookSignatureError);
    const other = fake.signed(fake.events[0], "whsec_someone_else");
    expect(() => provider.verifyEvent(Buffer.from(other.body), other.signature)).toThrow(WebhookSignatureError);
    const tampered = body.replace(/"livemode": false/, '"livemode": true');
    expect(tampered).not.toBe(body);
    expect(() => provider.verifyEvent(Buffer.from(tampered), signature)).toThrow(WebhookSignatureError);
    expect(() => provider.verifyEvent(Buffer.from(body), "t=1,v1=deadbeef")).toThrow(WebhookSignatureError);
    // The untouched pair still passes: the failures above are the changes, not the fixture.
    expect(provider.verifyEvent(Buffer.from(body), signature).id).toBe(fake.events[0].id);
  });

  it("delivers events to a webhook URL in order, signed", async () => {
    const received: Array<{ type: string; ok: boolean }> = [];
    const http = await import("node:http");
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        try {
          const e = provider.verifyEvent(Buffer.concat(chunks), req.headers["stripe-signature"] as string);
          received.push({ type: e.type, ok: true });
          res.writeHead(200).end();
        } catch {
          received.push({ type: "?", ok: false });
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const { port } = server.address() as { port: number };
    fake.setWebhookUrl(`http://127.0.0.1:${port}/webhooks/stripe`);
    try {
      await paid(price());
      expect(received).toEqual([
        { type: "checkout.session.completed", ok: true },
        { type: "customer.subscription.created", ok: true },
        { type: "invoice.paid", ok: true },
        { type: "invoice.payment_succeeded", ok: true },
      ]);
    } finally {
      fake.setWebhookUrl(null);
      await new Promise((r) => server.close(r));
    }
  });
});

describe("fake Stripe: the pages a browser test clicks through", () => {
  it("pays on the checkout page and returns to the success url with the session id", async () => {
    const req = request(price());
    const { sessionId, url } = await provider.createCheckout(req);
    const html = await (await fetch(url)).text();
    expect(html).toContain(">Pay</button>");
    expect(html).toContain(`href="${req.cancelUrl}"`);
    const res = await fetch(`${url}/complete`, { method: "POST", redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`https://hearth.test/checkout/done?session=${sessionId}`);
    expect((await provider.getCheckout(sessionId))!.status).toBe("complete");
    // A session is paid once.
    expect((await fetch(`${url}/complete`, { method: "POST", redirect: "manual" })).status).toBe(400);
  });

  it("cancels a plan from the portal page", async () => {
    const { checkout } = await paid(price());
    const url = (await provider.portalUrl(checkout.customerId!, "https://hearth.test/billing"))!;
    const res = await fetch(`${url}/cancel`, {
      method: "POST",
      body: new URLSearchParams({ subscription: checkout.subscriptionId! }),
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("https://hearth.test/billing");
    expect((await provider.getSubscription(checkout.subscriptionId!))!.cancelAtPeriodEnd).toBe(true);
    expect(lastEvent("customer.subscription.updated").data.object).toMatchObject({ cancel_at_period_end: true });
  });

  it("runs the controls over HTTP", async () => {
    const { checkout } = await paid(price());
    const res = await fetch(`${fake.url}/test/subscriptions/${checkout.subscriptionId}/renew`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ succeed: false }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as FakeSubscription).status).toBe("past_due");
    expect((await provider.getSubscription(checkout.subscriptionId!))!.status).toBe("past_due");
  });
});

describe("stripe provider: unknown ids", () => {
  it("reads null for objects Stripe does not know", async () => {
    expect(await provider.getCheckout("cs_test_nope")).toBeNull();
    expect(await provider.getSubscription("sub_nope")).toBeNull();
    expect(await provider.getInvoice("in_nope")).toBeNull();
    expect(await provider.getRefund("re_nope")).toBeNull();
    expect(await provider.getAccount("acct_nope")).toBeNull();
  });

  it("still throws other errors", async () => {
    const wrongKey = createStripeProvider({ ...config(), secretKey: "rk_wrong" });
    await expect(wrongKey.getSubscription("sub_nope")).rejects.toThrow(/Invalid API Key/);
  });
});
