import { randomBytes } from "node:crypto";

/*
 * The objects of the fake Stripe server (fake-stripe.ts), shaped as the `stripe` package's API
 * version returns them (the period on subscription items, an invoice's subscription under
 * `parent`), with only the fields Hearth reads and a few that make them recognisable. Plus the
 * parser for Stripe's form-encoded request bodies.
 */

export type Metadata = Record<string, string>;
export type Interval = "month" | "year";

export type FakeCustomer = {
  id: string;
  object: "customer";
  email: string | null;
  created: number;
  livemode: false;
  metadata: Metadata;
};
export type FakeProduct = {
  id: string;
  object: "product";
  name: string;
  active: true;
  created: number;
  livemode: false;
  metadata: Metadata;
};
export type FakePrice = {
  id: string;
  object: "price";
  product: string;
  unit_amount: number;
  currency: string;
  type: "recurring" | "one_time";
  recurring: { interval: Interval; interval_count: 1 } | null;
  active: true;
  created: number;
  livemode: false;
  metadata: Metadata;
};
export type FakeTransferData = { destination: string } | null;
export type FakeSession = {
  id: string;
  object: "checkout.session";
  mode: "subscription" | "payment";
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid" | "no_payment_required";
  customer: string | null;
  customer_email: string | null;
  customer_creation: "always" | "if_required" | null;
  client_reference_id: string | null;
  metadata: Metadata;
  success_url: string | null;
  cancel_url: string | null;
  url: string | null;
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  subscription: string | null;
  payment_intent: string | null;
  invoice: string | null;
  created: number;
  expires_at: number;
  livemode: false;
};
/** What a checkout session was created with that Stripe does not show on the session itself. */
export type SessionPlan = {
  price: string;
  trialDays: number;
  metadata: Metadata;
  transferData: FakeTransferData;
  /** Subscriptions: the fee percentage; payments: the fee amount. */
  applicationFeePercent: number | null;
  applicationFeeAmount: number | null;
};
export type FakeSubscriptionItem = {
  id: string;
  object: "subscription_item";
  price: FakePrice;
  quantity: 1;
  subscription: string;
  current_period_start: number;
  current_period_end: number;
  created: number;
  metadata: Metadata;
};
export type SubscriptionStatus =
  "trialing" | "active" | "past_due" | "unpaid" | "canceled" | "incomplete" | "incomplete_expired" | "paused";
export type FakeSubscription = {
  id: string;
  object: "subscription";
  customer: string;
  status: SubscriptionStatus;
  items: { object: "list"; data: FakeSubscriptionItem[]; has_more: false; url: string };
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  created: number;
  start_date: number;
  trial_start: number | null;
  trial_end: number | null;
  currency: string;
  latest_invoice: string | null;
  application_fee_percent: number | null;
  transfer_data: FakeTransferData;
  livemode: false;
  metadata: Metadata;
};
export type FakeInvoice = {
  id: string;
  object: "invoice";
  customer: string;
  status: "draft" | "open" | "paid" | "uncollectible" | "void";
  billing_reason: "subscription_create" | "subscription_cycle";
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  currency: string;
  hosted_invoice_url: string;
  invoice_pdf: string;
  parent: {
    type: "subscription_details";
    quote_details: null;
    subscription_details: { subscription: string; metadata: Metadata };
  };
  /** Gone from the invoice in newer API versions; kept here so Hearth's fallback reading is exercised. */
  application_fee_amount: number | null;
  period_start: number;
  period_end: number;
  created: number;
  livemode: false;
  metadata: Metadata;
};
export type FakePaymentIntent = {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  status: "succeeded";
  customer: string | null;
  latest_charge: string;
  transfer_data: FakeTransferData;
  application_fee_amount: number | null;
  created: number;
  livemode: false;
  metadata: Metadata;
};
export type FakeCharge = {
  id: string;
  object: "charge";
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  refunded: boolean;
  paid: true;
  status: "succeeded";
  currency: string;
  customer: string | null;
  payment_intent: string;
  created: number;
  livemode: false;
  metadata: Metadata;
};
export type FakeRefund = {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  status: "succeeded";
  created: number;
  metadata: Metadata;
};
export type FakeAccount = {
  id: string;
  object: "account";
  type: "express";
  email: string | null;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  details_submitted: boolean;
  capabilities: { card_payments?: "active" | "inactive"; transfers?: "active" | "inactive" };
  created: number;
  metadata: Metadata;
};
export type FakePortalSession = {
  id: string;
  object: "billing_portal.session";
  customer: string;
  return_url: string | null;
  url: string;
  created: number;
  livemode: false;
};
export type FakeObject =
  | FakeCustomer
  | FakeProduct
  | FakePrice
  | FakeSession
  | FakeSubscription
  | FakeInvoice
  | FakePaymentIntent
  | FakeCharge
  | FakeRefund
  | FakeAccount
  | FakePortalSession;

export type FakeEvent = {
  id: string;
  object: "event";
  api_version: string;
  type: string;
  livemode: false;
  created: number;
  /** The Connect account the event happened on (account.updated of a connected account). */
  account?: string;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: FakeObject };
};

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A Stripe-looking id: the prefix and 24 random letters and digits. */
export function newId(prefix: string): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return prefix + Array.from(randomBytes(24), (b) => alphabet[b % alphabet.length]).join("");
}

/** The next period's end: a month or a year after `from` (seconds), as Stripe's billing anchor does. */
export function addInterval(from: number, interval: Interval): number {
  const d = new Date(from * 1000);
  if (interval === "month") d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return Math.floor(d.getTime() / 1000);
}

/** A parsed Stripe request body: `a[b][0][c]=x` becomes `{ a: { b: [{ c: "x" }] } }`. */
export type Form = { [key: string]: FormValue };
export type FormValue = string | Form | FormValue[];

export function parseForm(body: string): Form {
  const root: Form = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, "").split("[");
    let node: Form = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) {
        node[part] = value;
        return;
      }
      const next = node[part];
      if (typeof next !== "object" || next === null) node[part] = {};
      node = node[part] as Form;
    });
  }
  return arrays(root) as Form;
}

/** Objects whose keys are all 0, 1, 2… (Stripe's indexed arrays) become arrays. */
function arrays(v: FormValue): FormValue {
  if (typeof v === "string" || Array.isArray(v)) return v;
  const keys = Object.keys(v);
  const out: Form = {};
  for (const k of keys) out[k] = arrays(v[k]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k)))
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => out[k]);
  return out;
}

/** Reads a string field of a parsed body; nested with several names (`str(f, "recurring", "interval")`). */
export function str(form: FormValue | undefined, ...path: (string | number)[]): string | undefined {
  let v: FormValue | undefined = form;
  for (const key of path) {
    if (v === undefined || typeof v === "string") return undefined;
    v = Array.isArray(v) ? v[Number(key)] : v[String(key)];
  }
  return typeof v === "string" ? v : undefined;
}

export function sub(form: FormValue | undefined, ...path: (string | number)[]): Form | undefined {
  let v: FormValue | undefined = form;
  for (const key of path) {
    if (v === undefined || typeof v === "string") return undefined;
    v = Array.isArray(v) ? v[Number(key)] : v[String(key)];
  }
  return v !== undefined && typeof v === "object" && !Array.isArray(v) ? v : undefined;
}

export function list(form: FormValue | undefined, key: string): FormValue[] {
  const v = form !== undefined && typeof form === "object" && !Array.isArray(form) ? form[key] : undefined;
  return Array.isArray(v) ? v : [];
}

/** Metadata as sent (`metadata[key]=value`); an empty value removes a key in Stripe, and is dropped here. */
export function metadataOf(form: FormValue | undefined): Metadata {
  const out: Metadata = {};
  for (const [k, v] of Object.entries(sub(form, "metadata") ?? {})) if (typeof v === "string" && v !== "") out[k] = v;
  return out;
}

export const int = (v: string | undefined) => (v === undefined || v === "" ? undefined : Number.parseInt(v, 10));
export const float = (v: string | undefined) => (v === undefined || v === "" ? undefined : Number(v));
export const bool = (v: string | undefined) => (v === undefined ? undefined : v === "true");
