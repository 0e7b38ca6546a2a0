import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db, Queryable } from "#server/db/client";
import { simulatedObjects } from "#server/db/schema/index";
import type {
  CheckoutRequest,
  HearthMetadata,
  PaymentProvider,
  ProviderAccount,
  ProviderCheckout,
  ProviderEvent,
  ProviderInvoice,
  ProviderRefund,
  ProviderSubscription,
} from "./provider";

/*
 * The simulated provider (default: the demo, development and CI). No money moves and no card data
 * is asked for by the server: the card form stays in the browser. Its objects live in
 * simulated_objects so they can be re-read like Stripe's, and what happens to them is reported as
 * events that go through the same store, queue and processor as Stripe's webhooks.
 */

const id = (prefix: string) => `sim_${prefix}_${randomBytes(12).toString("base64url")}`;

type Json = Record<string, unknown>;
type SimCheckout = Omit<ProviderCheckout, "metadata"> & {
  metadata: HearthMetadata;
  interval: "month" | "year" | "once";
  trialDays: number;
  providerPriceId: string;
  cancelUrl: string;
};
type SimSubscription = Omit<ProviderSubscription, "currentPeriodEnd" | "trialEnd" | "updatedAt"> & {
  currentPeriodEnd: string;
  trialEnd: string | null;
  updatedAt: string;
  interval: "month" | "year";
  amount: number;
  currency: string;
};

export type SimulatedProvider = PaymentProvider & {
  /** The card form was submitted: the checkout completes, as Stripe Checkout would. */
  complete(sessionId: string): Promise<ProviderEvent[]>;
  /** A renewal of one subscription, paid or failed (tests; the renewal sweep uses it too). */
  renew(subscriptionId: string, opts: { succeed: boolean }): Promise<ProviderEvent[]>;
  /** Renews (paid) or ends every subscription whose period is over: the simulated clock. */
  renewDue(): Promise<ProviderEvent[]>;
  /** Connect onboarding finished (there is no real onboarding to go through). */
  completeOnboarding(accountId: string): Promise<ProviderEvent[]>;
};

function addInterval(from: Date, interval: "month" | "year", days = 0): Date {
  const d = new Date(from);
  if (days > 0) d.setUTCDate(d.getUTCDate() + days);
  else if (interval === "month") d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d;
}

export function createSimulatedProvider(opts: { db: Db; publicUrl: string }): SimulatedProvider {
  const { db } = opts;

  async function read<T>(objectId: string, kind: string, q: Queryable = db): Promise<T | null> {
    const [row] = await q.select().from(simulatedObjects).where(eq(simulatedObjects.id, objectId));
    return row && row.kind === kind ? (row.data as T) : null;
  }
  async function write(objectId: string, kind: string, data: object, q: Queryable = db) {
    await q
      .insert(simulatedObjects)
      .values({ id: objectId, kind, data: data as Json })
      .onConflictDoUpdate({ target: simulatedObjects.id, set: { data: data as Json, updatedAt: new Date() } });
  }
  const event = (type: string, objectId: string, payload: object): ProviderEvent => ({
    id: id("evt"),
    type,
    livemode: false,
    objectId,
    created: new Date(),
    account: null,
    payload: { type, data: { object: payload } },
  });
  const toSubscription = (s: SimSubscription): ProviderSubscription => ({
    ...s,
    currentPeriodEnd: new Date(s.currentPeriodEnd),
    trialEnd: s.trialEnd ? new Date(s.trialEnd) : null,
    updatedAt: new Date(s.updatedAt),
  });

  async function invoice(sub: SimSubscription, paid: boolean, q: Queryable): Promise<ProviderInvoice> {
    const inv: ProviderInvoice = {
      id: id("in"),
      subscriptionId: sub.id,
      customerId: sub.customerId,
      status: paid ? "paid" : "open",
      amountPaid: paid ? sub.amount : 0,
      amountDue: sub.amount,
      currency: sub.currency,
      receiptUrl: null,
      fee: 0,
      created: new Date(),
    };
    await write(inv.id, "invoice", inv, q);
    return inv;
  }

  async function renewOne(sub: SimSubscription, succeed: boolean, q: Queryable): Promise<ProviderEvent[]> {
    const now = new Date();
    const inv = await invoice(sub, succeed, q);
    if (succeed) {
      const from = new Date(Math.max(now.getTime(), new Date(sub.currentPeriodEnd).getTime()));
      sub.currentPeriodEnd = addInterval(from, sub.interval).toISOString();
      sub.status = "active";
    } else {
      sub.status = "past_due";
    }
    sub.trialEnd = null;
    sub.updatedAt = now.toISOString();
    await write(sub.id, "subscription", sub, q);
    return [
      event(succeed ? "invoice.paid" : "invoice.payment_failed", inv.id, inv),
      event("customer.subscription.updated", sub.id, sub),
    ];
  }

  const provider: SimulatedProvider = {
    name: "simulated",
    livemode: false,

    async ensurePrice(price) {
      return price.providerPriceId ?? `sim_price_${price.id}`;
    },

    async createCheckout(req: CheckoutRequest) {
      const customerId = req.customerId ?? `sim_cus_${req.userId}`;
      const checkout: SimCheckout = {
        id: id("cs"),
        status: "open",
        paymentStatus: "unpaid",
        customerId,
        subscriptionId: null,
        paymentId: null,
        amountTotal: req.price.amount,
        currency: req.price.currency,
        metadata: { checkout_id: req.checkoutId, user_id: req.userId, price_id: req.price.id },
        interval: req.price.interval,
        trialDays: req.price.trialDays,
        providerPriceId: await provider.ensurePrice(req.price),
        cancelUrl: req.cancelUrl,
      };
      await write(checkout.id, "checkout", checkout);
      // The card form is Hearth's own page: the success URL is where it lives.
      return { sessionId: checkout.id, url: req.successUrl, customerId };
    },

    async complete(sessionId) {
      return db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`hearth:sim:${sessionId}`}))`);
        const checkout = await read<SimCheckout>(sessionId, "checkout", tx);
        if (!checkout || checkout.status !== "open") return [];
        const now = new Date();
        const events: ProviderEvent[] = [];
        if (checkout.interval === "once") {
          checkout.paymentId = id("pi");
          checkout.paymentStatus = "paid";
        } else {
          const trial = checkout.trialDays > 0;
          const sub: SimSubscription = {
            id: id("sub"),
            customerId: checkout.customerId ?? `sim_cus_${checkout.metadata.user_id}`,
            status: trial ? "trialing" : "active",
            providerPriceId: checkout.providerPriceId,
            currentPeriodEnd: addInterval(now, checkout.interval, checkout.trialDays).toISOString(),
            cancelAtPeriodEnd: false,
            trialEnd: trial ? addInterval(now, checkout.interval, checkout.trialDays).toISOString() : null,
            updatedAt: now.toISOString(),
            metadata: checkout.metadata,
            interval: checkout.interval,
            amount: checkout.amountTotal,
            currency: checkout.currency,
          };
          await write(sub.id, "subscription", sub, tx);
          checkout.subscriptionId = sub.id;
          checkout.paymentStatus = trial ? "no_payment_required" : "paid";
          events.push(event("customer.subscription.created", sub.id, sub));
          if (!trial) {
            const inv = await invoice(sub, true, tx);
            events.push(event("invoice.paid", inv.id, inv));
          }
        }
        checkout.status = "complete";
        await write(checkout.id, "checkout", checkout, tx);
        return [event("checkout.session.completed", checkout.id, checkout), ...events];
      });
    },

    async renew(subscriptionId, { succeed }) {
      return db.transaction(async (tx) => {
        const sub = await read<SimSubscription>(subscriptionId, "subscription", tx);
        if (!sub || sub.status === "canceled") return [];
        return renewOne(sub, succeed, tx);
      });
    },

    async renewDue() {
      const due = await db.execute<{ id: string }>(sql`
        SELECT id FROM simulated_objects
         WHERE kind = 'subscription' AND data->>'status' IN ('active', 'trialing')
           AND (data->>'currentPeriodEnd')::timestamptz <= now()
         ORDER BY seq LIMIT 500`);
      const events: ProviderEvent[] = [];
      for (const { id: subId } of due.rows) {
        events.push(
          ...(await db.transaction(async (tx) => {
            const sub = await read<SimSubscription>(subId, "subscription", tx);
            if (!sub || new Date(sub.currentPeriodEnd).getTime() > Date.now()) return [];
            if (sub.cancelAtPeriodEnd) {
              sub.status = "canceled";
              sub.updatedAt = new Date().toISOString();
              await write(sub.id, "subscription", sub, tx);
              return [event("customer.subscription.deleted", sub.id, sub)];
            }
            return renewOne(sub, true, tx);
          })),
        );
      }
      return events;
    },

    async getCheckout(sessionId) {
      const c = await read<SimCheckout>(sessionId, "checkout");
      return c
        ? {
            id: c.id,
            status: c.status,
            paymentStatus: c.paymentStatus,
            customerId: c.customerId,
            subscriptionId: c.subscriptionId,
            paymentId: c.paymentId,
            amountTotal: c.amountTotal,
            currency: c.currency,
            metadata: c.metadata,
          }
        : null;
    },
    async getSubscription(subscriptionId) {
      const s = await read<SimSubscription>(subscriptionId, "subscription");
      return s ? toSubscription(s) : null;
    },
    async getInvoice(invoiceId) {
      const inv = await read<ProviderInvoice & { created: string }>(invoiceId, "invoice");
      return inv ? { ...inv, created: new Date(inv.created) } : null;
    },
    async getRefund(refundId) {
      const r = await read<ProviderRefund & { created: string }>(refundId, "refund");
      return r ? { ...r, created: new Date(r.created) } : null;
    },
    async *listSubscriptions() {
      let after = 0;
      for (;;) {
        const page = await db.execute<{ data: SimSubscription; seq: number }>(sql`
          SELECT data, seq FROM simulated_objects
           WHERE kind = 'subscription' AND seq > ${after} AND data->>'status' <> 'canceled'
           ORDER BY seq LIMIT 100`);
        for (const row of page.rows) yield toSubscription(row.data);
        if (page.rows.length < 100) return;
        after = Number(page.rows[page.rows.length - 1].seq);
      }
    },

    async setCancelAtPeriodEnd(subscriptionId, cancel) {
      const sub = await read<SimSubscription>(subscriptionId, "subscription");
      if (!sub) throw new Error(`No such subscription: ${subscriptionId}`);
      if (sub.status !== "canceled") {
        sub.cancelAtPeriodEnd = cancel;
        sub.updatedAt = new Date().toISOString();
        await write(sub.id, "subscription", sub);
      }
      return toSubscription(sub);
    },
    async changePrice(subscriptionId, providerPriceId) {
      const sub = await read<SimSubscription>(subscriptionId, "subscription");
      if (!sub) throw new Error(`No such subscription: ${subscriptionId}`);
      const [price] = (
        await db.execute<{ amount: number; currency: string; interval: "month" | "year" }>(sql`
          SELECT amount, currency, interval FROM prices
           WHERE provider_price_id = ${providerPriceId} OR ${`sim_price_`} || id::text = ${providerPriceId}`)
      ).rows;
      sub.providerPriceId = providerPriceId;
      if (price) Object.assign(sub, { amount: price.amount, currency: price.currency, interval: price.interval });
      sub.updatedAt = new Date().toISOString();
      await write(sub.id, "subscription", sub);
      return toSubscription(sub);
    },
    async refund(paymentId) {
      const r = {
        id: id("re"),
        paymentId,
        amount: 0,
        currency: "usd",
        status: "succeeded" as const,
        created: new Date(),
      };
      const [paid] = (
        await db.execute<{ amount: number; currency: string }>(sql`
          SELECT amount, currency FROM entitlements WHERE provider = 'simulated' AND provider_payment_id = ${paymentId}`)
      ).rows;
      if (paid) Object.assign(r, { amount: paid.amount, currency: paid.currency });
      await write(r.id, "refund", r);
      return r;
    },
    async portalUrl() {
      return null;
    },

    async createAccount() {
      const account: ProviderAccount = {
        id: id("acct"),
        chargesEnabled: false,
        payoutsEnabled: false,
        detailsSubmitted: false,
      };
      await write(account.id, "account", account);
      return account;
    },
    async accountLink(_accountId, _refreshUrl, returnUrl) {
      return returnUrl;
    },
    async getAccount(accountId) {
      return read<ProviderAccount>(accountId, "account");
    },
    async completeOnboarding(accountId) {
      const account = await read<ProviderAccount>(accountId, "account");
      if (!account) return [];
      Object.assign(account, { chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true });
      await write(account.id, "account", account);
      return [event("account.updated", account.id, account)];
    },

    verifyEvent() {
      // The simulated provider has no webhooks: its events are stored by the server itself.
      throw new Error("The simulated provider does not receive webhooks");
    },
  };
  return provider;
}
