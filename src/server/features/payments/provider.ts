import type { BillingInterval, PaymentProviderName } from "#shared/payments";

/*
 * The payment provider interface (issue 18, docs/payments.md). Two implementations: `simulated`
 * (default; its objects live in the simulated_objects table) and `stripe` (the official package).
 * Providers only create things and report; entitlements.ts alone decides access. Every object a
 * provider returns is normalized to the shapes below, so the event processor is provider-blind.
 */

/** Metadata Hearth puts on every checkout and subscription, and reads back from events. */
export type HearthMetadata = {
  /** The checkout_sessions row that started it. */
  checkout_id: string;
  user_id: string;
  /** The prices row charged. */
  price_id: string;
};

export type ProviderSubscriptionStatus =
  "trialing" | "active" | "past_due" | "unpaid" | "canceled" | "incomplete" | "incomplete_expired" | "paused";

export type ProviderSubscription = {
  id: string;
  customerId: string;
  status: ProviderSubscriptionStatus;
  /** The provider's price now charged (changes on 'Change plan'). */
  providerPriceId: string;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  trialEnd: Date | null;
  /** When the provider last changed it (ordering of out-of-order events). */
  updatedAt: Date;
  metadata: Partial<HearthMetadata>;
};

export type ProviderCheckout = {
  id: string;
  status: "open" | "complete" | "expired";
  paymentStatus: "paid" | "unpaid" | "no_payment_required";
  customerId: string | null;
  subscriptionId: string | null;
  /** A one-time payment's id (Stripe payment intent). */
  paymentId: string | null;
  amountTotal: number;
  currency: string;
  metadata: Partial<HearthMetadata>;
};

export type ProviderInvoice = {
  id: string;
  subscriptionId: string | null;
  customerId: string | null;
  status: "paid" | "open" | "uncollectible" | "void" | "draft";
  amountPaid: number;
  amountDue: number;
  currency: string;
  receiptUrl: string | null;
  /** The instance's fee on a Connect payment (application fee), minor units. */
  fee: number;
  created: Date;
};

export type ProviderRefund = {
  id: string;
  /** The refunded one-time payment (payment intent). */
  paymentId: string | null;
  amount: number;
  currency: string;
  status: "succeeded" | "pending" | "failed" | "canceled";
  created: Date;
};

export type ProviderAccount = {
  id: string;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
};

/** A verified webhook event: what happened and the id of the object to re-read. */
export type ProviderEvent = {
  id: string;
  type: string;
  livemode: boolean;
  objectId: string | null;
  created: Date;
  /** The Connect account the event came from, if any. */
  account: string | null;
  payload: Record<string, unknown>;
  /**
   * The subscription the event is about when it names one (a checkout's, an invoice's), else its
   * object: the queue claims the waiting events of one group together (event-batch.ts). Only a hint
   * for grouping; what the event changes always comes from re-reading the objects.
   */
  groupRef?: string | null;
};

export type CheckoutRequest = {
  checkoutId: string;
  userId: string;
  email: string;
  /** An existing customer of this person, reused. */
  customerId: string | null;
  price: {
    id: string;
    providerPriceId: string | null;
    amount: number;
    currency: string;
    interval: BillingInterval;
    trialDays: number;
    productName: string;
  };
  successUrl: string;
  cancelUrl: string;
  /** Stripe Connect: the destination account and the instance's fee percentage. */
  connect: { accountId: string; feePercent: number } | null;
};

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Test or live: events of the other mode are refused (always false for simulated). */
  readonly livemode: boolean;

  /** Makes (once) the provider's price for a stored price; returns its id. */
  ensurePrice(price: CheckoutRequest["price"]): Promise<string>;
  /** Starts a checkout: where to send the browser, and the provider's session id. */
  createCheckout(req: CheckoutRequest): Promise<{ sessionId: string; url: string; customerId: string | null }>;

  getCheckout(id: string): Promise<ProviderCheckout | null>;
  getSubscription(id: string): Promise<ProviderSubscription | null>;
  getInvoice(id: string): Promise<ProviderInvoice | null>;
  getRefund(id: string): Promise<ProviderRefund | null>;
  /** Every subscription the provider holds that is not ended (reconciliation), page by page. */
  listSubscriptions(): AsyncIterable<ProviderSubscription>;

  /** Cancel at the period's end (access stays until then), or resume a scheduled cancellation. */
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<ProviderSubscription>;
  /** Move a subscription to another price (another tier or interval), prorated by the provider. */
  changePrice(subscriptionId: string, providerPriceId: string): Promise<ProviderSubscription>;
  /** Refund a one-time payment in full. */
  refund(paymentId: string): Promise<ProviderRefund>;
  /** The customer portal (change card, invoices, cancel); null where the provider has none. */
  portalUrl(customerId: string, returnUrl: string): Promise<string | null>;

  /** Stripe Connect onboarding: a new account, a link to finish it, its status. */
  createAccount(email: string): Promise<ProviderAccount>;
  accountLink(accountId: string, refreshUrl: string, returnUrl: string): Promise<string>;
  getAccount(accountId: string): Promise<ProviderAccount | null>;

  /** Checks the signature over the raw body; throws on anything not signed by the provider. */
  verifyEvent(rawBody: Buffer, signature: string | undefined): ProviderEvent;
}
