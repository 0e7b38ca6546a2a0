import Stripe from "stripe";
import type { PaymentsConfig } from "#server/config";
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
  ProviderSubscriptionStatus,
} from "./provider";

/*
 * The `stripe` provider (issue 18, docs/payments.md): the official package, normalized to the
 * provider's shapes. Every object is read with the API version the package pins, so the fields
 * read here are the ones its types describe; the few that moved between versions (the period
 * end, an invoice's subscription and fee) are read from both places.
 */

export type StripePaymentsConfig = Extract<PaymentsConfig, { provider: "stripe" }>;

/** A webhook request whose Stripe-Signature is missing or does not match its body (answered 400). */
export class WebhookSignatureError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WebhookSignatureError";
  }
}

const seconds = (s: number) => new Date(s * 1000);

/** Stripe's enums are open (a newer API may add values): one Hearth knows, or `fallback`. */
function known<T extends string>(value: string | null | undefined, values: readonly T[], fallback: T): T {
  return values.includes(value as T) ? (value as T) : fallback;
}
const SUBSCRIPTION_STATUSES: readonly ProviderSubscriptionStatus[] = [
  "trialing",
  "active",
  "past_due",
  "unpaid",
  "canceled",
  "incomplete",
  "incomplete_expired",
  "paused",
];
const CHECKOUT_STATUSES = ["open", "complete", "expired"] as const;
const CHECKOUT_PAYMENT_STATUSES = ["paid", "unpaid", "no_payment_required"] as const;
const INVOICE_STATUSES = ["paid", "open", "uncollectible", "void", "draft"] as const;
const REFUND_STATUSES = ["succeeded", "pending", "failed", "canceled"] as const;
const idOf = (v: string | { id: string } | null | undefined) => (v == null ? null : typeof v === "string" ? v : v.id);

type Ref = string | { id: string } | null | undefined;

/** ProviderEvent.groupRef: the subscription a checkout, invoice or subscription event names, else the object. */
function groupRefOf(type: string, object: Record<string, unknown> | undefined): string | null {
  if (!object) return null;
  const own = typeof object.id === "string" ? object.id : null;
  if (type.startsWith("customer.subscription.")) return own;
  if (type.startsWith("checkout.session.")) return idOf(object.subscription as Ref) ?? own;
  if (type.startsWith("invoice.")) {
    const parent = object.parent as { subscription_details?: { subscription?: Ref } } | null | undefined;
    return idOf((object.subscription as Ref) ?? parent?.subscription_details?.subscription) ?? own;
  }
  return own;
}

/** A Stripe event (its signature checked) as a ProviderEvent. */
export function stripeEvent(event: Stripe.Event): ProviderEvent {
  const object = event.data?.object as unknown as Record<string, unknown> | undefined;
  return {
    id: event.id,
    type: event.type,
    livemode: event.livemode,
    objectId: typeof object?.id === "string" ? object.id : null,
    created: seconds(event.created),
    account: event.account ?? null,
    payload: event as unknown as Record<string, unknown>,
    groupRef: groupRefOf(event.type, object),
  };
}

/** Hearth's three metadata keys, when present (anything else on the object is ignored). */
function hearthMetadata(m: Record<string, string> | null | undefined): Partial<HearthMetadata> {
  const out: Partial<HearthMetadata> = {};
  for (const key of ["checkout_id", "user_id", "price_id"] as const) if (m?.[key]) out[key] = m[key];
  return out;
}

/** Stripe's 404 for an id it does not know (deleted, another account or mode, a typo). */
const isMissing = (err: unknown) =>
  err instanceof Stripe.errors.StripeError && (err.code === "resource_missing" || err.statusCode === 404);

/**
 * A re-read of one object (each event processed makes one or more), null when Stripe does not know
 * it. stripe-node keeps the caller's stack on every call (`new Error().stack`, for its errors), and
 * with source maps on (the loader) each stack costs about 3% of a busy process's time: re-reads
 * start with no stack frames kept, and an error of one still names the request and Stripe's answer.
 */
async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  const limit = Error.stackTraceLimit;
  let pending: Promise<T>;
  Error.stackTraceLimit = 0;
  try {
    pending = read();
  } finally {
    Error.stackTraceLimit = limit;
  }
  try {
    return await pending;
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

function normalizeSubscription(s: Stripe.Subscription): ProviderSubscription {
  const item = s.items.data[0];
  // Since API version 2025-03-31 the period lives on the items; older objects carry it on the subscription.
  const legacy = s as unknown as { current_period_end?: number };
  const periodEnd = item?.current_period_end ?? legacy.current_period_end ?? s.trial_end ?? s.created;
  return {
    id: s.id,
    customerId: idOf(s.customer) ?? "",
    // A status newer than this code opens nothing: read as `incomplete` (not yet paid).
    status: known(s.status, SUBSCRIPTION_STATUSES, "incomplete"),
    providerPriceId: item?.price.id ?? "",
    currentPeriodEnd: seconds(periodEnd),
    cancelAtPeriodEnd: s.cancel_at_period_end,
    trialEnd: s.trial_end === null ? null : seconds(s.trial_end),
    // Stripe keeps no "last changed" time. The object was just read from Stripe, so it is the
    // newest state there is: the read time orders it after any state Hearth saw before.
    updatedAt: new Date(),
    metadata: hearthMetadata(s.metadata),
  };
}

function normalizeCheckout(c: Stripe.Checkout.Session): ProviderCheckout {
  return {
    id: c.id,
    status: known(c.status, CHECKOUT_STATUSES, "open"),
    paymentStatus: known(c.payment_status, CHECKOUT_PAYMENT_STATUSES, "unpaid"),
    customerId: idOf(c.customer),
    subscriptionId: idOf(c.subscription),
    paymentId: idOf(c.payment_intent),
    amountTotal: c.amount_total ?? 0,
    currency: c.currency ?? "",
    metadata: hearthMetadata(c.metadata),
  };
}

function normalizeInvoice(i: Stripe.Invoice): ProviderInvoice {
  // `subscription` and `application_fee_amount` left the invoice in newer API versions (the
  // subscription moved under `parent`); both are read wherever the object carries them.
  const legacy = i as unknown as { subscription?: string | { id: string } | null; application_fee_amount?: number };
  const subscription = legacy.subscription ?? i.parent?.subscription_details?.subscription ?? null;
  return {
    id: i.id,
    subscriptionId: idOf(subscription),
    customerId: idOf(i.customer),
    status: known(i.status, INVOICE_STATUSES, "draft"),
    amountPaid: i.amount_paid,
    amountDue: i.amount_due,
    currency: i.currency,
    receiptUrl: i.hosted_invoice_url ?? null,
    fee: legacy.application_fee_amount ?? 0,
    created: seconds(i.created),
  };
}

function normalizeRefund(r: Stripe.Refund): ProviderRefund {
  return {
    id: r.id,
    paymentId: idOf(r.payment_intent),
    amount: r.amount,
    currency: r.currency,
    // `requires_action` (a refund waiting on the customer) is still pending from Hearth's side.
    status: known(r.status, REFUND_STATUSES, "pending"),
    created: seconds(r.created),
  };
}

const normalizeAccount = (a: Stripe.Account): ProviderAccount => ({
  id: a.id,
  chargesEnabled: a.charges_enabled ?? false,
  payoutsEnabled: a.payouts_enabled ?? false,
  detailsSubmitted: a.details_submitted ?? false,
});

/** The instance's cut of a one-time Connect payment, in minor units. */
export const applicationFee = (amount: number, percent: number) => Math.round((amount * percent) / 100);

export function createStripeProvider(config: StripePaymentsConfig): PaymentProvider {
  const stripe = new Stripe(config.secretKey, {
    // Retries reuse the request's idempotency key, so a retried create never makes a second object.
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(config.api ?? {}),
  });

  async function ensurePrice(price: CheckoutRequest["price"]): Promise<string> {
    if (price.providerPriceId) return price.providerPriceId;
    // Keyed by Hearth's price id: two processes making the same price get the same product and price.
    const product = await stripe.products.create(
      { name: price.productName, metadata: { price_id: price.id } },
      { idempotencyKey: `hearth-product-${price.id}` },
    );
    const created = await stripe.prices.create(
      {
        product: product.id,
        unit_amount: price.amount,
        currency: price.currency,
        ...(price.interval === "once" ? {} : { recurring: { interval: price.interval } }),
        metadata: { price_id: price.id },
      },
      { idempotencyKey: `hearth-price-${price.id}` },
    );
    return created.id;
  }

  async function createCheckout(req: CheckoutRequest) {
    const providerPriceId = await ensurePrice(req.price);
    const metadata: HearthMetadata = { checkout_id: req.checkoutId, user_id: req.userId, price_id: req.price.id };
    const recurring = req.price.interval !== "once";
    const connect = req.connect;
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: recurring ? "subscription" : "payment",
      line_items: [{ price: providerPriceId, quantity: 1 }],
      client_reference_id: req.checkoutId,
      metadata,
      success_url: req.successUrl,
      cancel_url: req.cancelUrl,
      ...(req.customerId ? { customer: req.customerId } : { customer_email: req.email }),
    };
    if (recurring) {
      params.subscription_data = {
        metadata,
        ...(req.price.trialDays > 0 ? { trial_period_days: req.price.trialDays } : {}),
        // Destination charges: the platform charges, Stripe moves the rest to the owner's account.
        ...(connect
          ? { transfer_data: { destination: connect.accountId }, application_fee_percent: connect.feePercent }
          : {}),
      };
    } else {
      params.payment_intent_data = {
        metadata,
        ...(connect
          ? {
              transfer_data: { destination: connect.accountId },
              application_fee_amount: applicationFee(req.price.amount, connect.feePercent),
            }
          : {}),
      };
      // A one-time buyer gets a customer too, so the billing page and the portal find their receipts.
      if (!req.customerId) params.customer_creation = "always";
    }
    const session = await stripe.checkout.sessions.create(params, { idempotencyKey: req.checkoutId });
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
    return { sessionId: session.id, url: session.url, customerId: idOf(session.customer) };
  }

  async function* listSubscriptions(): AsyncIterable<ProviderSubscription> {
    for await (const s of stripe.subscriptions.list({ status: "all", limit: 100 })) {
      if (s.status === "canceled" || s.status === "incomplete_expired") continue;
      yield normalizeSubscription(s);
    }
  }

  return {
    name: "stripe",
    livemode: config.livemode,
    ensurePrice,
    createCheckout,

    getCheckout: async (id) => {
      const c = await orNull(() => stripe.checkout.sessions.retrieve(id));
      return c && normalizeCheckout(c);
    },
    getSubscription: async (id) => {
      const s = await orNull(() => stripe.subscriptions.retrieve(id));
      return s && normalizeSubscription(s);
    },
    getInvoice: async (id) => {
      const i = await orNull(() => stripe.invoices.retrieve(id));
      return i && normalizeInvoice(i);
    },
    getRefund: async (id) => {
      const r = await orNull(() => stripe.refunds.retrieve(id));
      return r && normalizeRefund(r);
    },
    listSubscriptions,

    setCancelAtPeriodEnd: async (subscriptionId, cancel) =>
      normalizeSubscription(await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel })),

    changePrice: async (subscriptionId, providerPriceId) => {
      const current = await stripe.subscriptions.retrieve(subscriptionId);
      const item = current.items.data[0];
      if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no item to change`);
      const updated = await stripe.subscriptions.update(subscriptionId, {
        items: [{ id: item.id, price: providerPriceId }],
        proration_behavior: "create_prorations",
      });
      return normalizeSubscription(updated);
    },

    // Keyed by the payment: a second refund request (a double click, a retry) is the same refund.
    refund: async (paymentId) =>
      normalizeRefund(
        await stripe.refunds.create({ payment_intent: paymentId }, { idempotencyKey: `hearth-refund-${paymentId}` }),
      ),

    portalUrl: async (customerId, returnUrl) =>
      (await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl })).url,

    createAccount: async (email) =>
      normalizeAccount(
        await stripe.accounts.create({
          type: "express",
          email,
          capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
        }),
      ),

    accountLink: async (accountId, refreshUrl, returnUrl) =>
      (
        await stripe.accountLinks.create({
          account: accountId,
          refresh_url: refreshUrl,
          return_url: returnUrl,
          type: "account_onboarding",
        })
      ).url,

    getAccount: async (accountId) => {
      const a = await orNull(() => stripe.accounts.retrieve(accountId));
      return a && normalizeAccount(a);
    },

    verifyEvent(rawBody: Buffer, signature: string | undefined): ProviderEvent {
      if (!signature) throw new WebhookSignatureError("Missing Stripe-Signature header");
      let event: Stripe.Event;
      try {
        // Decoded once here: given bytes, stripe-node decodes them twice (the signature, then the parse).
        event = stripe.webhooks.constructEvent(rawBody.toString("utf8"), signature, config.webhookSecret);
      } catch (err) {
        throw new WebhookSignatureError("Invalid Stripe-Signature", { cause: err });
      }
      return stripeEvent(event);
    },
  };
}
