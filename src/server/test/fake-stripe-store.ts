import Stripe from "stripe";
import {
  bool,
  float,
  int,
  list,
  metadataOf,
  newId,
  nowSeconds,
  str,
  sub,
  type FakeAccount,
  type FakeCharge,
  type FakeCustomer,
  type FakeEvent,
  type FakeObject,
  type FakePaymentIntent,
  type FakePortalSession,
  type FakePrice,
  type FakeProduct,
  type FakeRefund,
  type FakeSession,
  type FakeSubscription,
  type Form,
  type Metadata,
  type SessionPlan,
} from "./fake-stripe-objects";

/*
 * The fake Stripe's state (fake-stripe.ts serves it): the objects, the events with their
 * signing and delivery, and what each API request does to them.
 */

export type FakeStripeOptions = {
  webhookSecret: string;
  /** Where each event is POSTed (with Stripe-Signature); none: events are only kept in `events`. */
  webhookUrl?: string;
  /** The port to listen on (127.0.0.1); 0, the default, takes a free one. */
  port?: number;
};

/** A Stripe API error answer: `{"error": {type, message, code, param}}` with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly type = "invalid_request_error",
  ) {
    super(message);
  }
}

export const missing = (kind: string, id: string, param = "id") =>
  new ApiError(404, `No such ${kind}: '${id}'`, "resource_missing", param);

export type FakeStripeStore = ReturnType<typeof createStore>;

export function createStore(options: FakeStripeOptions) {
  let webhookUrl = options.webhookUrl ?? null;
  const objects = new Map<string, FakeObject>();
  /** Subscriptions in creation order (Stripe lists newest first). */
  const subscriptionOrder: string[] = [];
  const plans = new Map<string, SessionPlan>();
  /** Per account link's account: where onboarding returns to. */
  const onboardingUrls = new Map<string, { refresh: string; return: string }>();
  const events: FakeEvent[] = [];
  const deliveries: Array<{ eventId: string; status: number | null; error?: string }> = [];
  let delivery: Promise<void> = Promise.resolve();
  /** The server's own address, for the urls of its pages (set once it listens). */
  let base = "";

  function get<T extends FakeObject>(id: string, object: T["object"], kind: string, param = "id"): T {
    const o = objects.get(id);
    if (!o || o.object !== object) throw missing(kind, id, param);
    return o as T;
  }
  const put = <T extends FakeObject>(o: T): T => {
    objects.set(o.id, o);
    return o;
  };

  /** Records an event with a copy of the object as it is now, and queues its delivery. */
  function emit(type: string, object: FakeObject, account?: string): FakeEvent {
    const event: FakeEvent = {
      id: newId("evt_"),
      object: "event",
      api_version: Stripe.API_VERSION,
      type,
      livemode: false,
      created: nowSeconds(),
      ...(account ? { account } : {}),
      pending_webhooks: webhookUrl ? 1 : 0,
      request: { id: null, idempotency_key: null },
      data: { object: structuredClone(object) },
    };
    events.push(event);
    const url = webhookUrl;
    if (url && held) held.push([url, event]);
    else if (url) delivery = delivery.then(() => deliver(url, event));
    return event;
  }

  /** Events kept back while deliveries are held (a browser test's view of "the webhook is late"). */
  let held: Array<[string, FakeEvent]> | null = null;
  function holdDeliveries() {
    held ??= [];
  }
  /** Sends the held events, in order, and delivers again as events come. */
  function releaseDeliveries() {
    const waiting = held ?? [];
    held = null;
    for (const [url, event] of waiting) delivery = delivery.then(() => deliver(url, event));
  }

  function signed(event: FakeEvent, secret = options.webhookSecret): { body: string; signature: string } {
    const body = JSON.stringify(event, null, 2);
    return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) };
  }

  async function deliver(url: string, event: FakeEvent): Promise<void> {
    const { body, signature } = signed(event);
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      deliveries.push({ eventId: event.id, status: res.status });
    } catch (err) {
      // Stripe keeps sending later events when one delivery fails; so does the fake.
      deliveries.push({ eventId: event.id, status: null, error: String(err) });
    }
  }

  /** Resolves when every event emitted so far has been delivered (or failed to be), held ones aside. */
  const idle = async () => {
    let last: Promise<void>;
    do {
      last = delivery;
      await last;
    } while (last !== delivery);
  };

  // ---- API objects -------------------------------------------------------------------------

  function createCustomer(email: string | null, metadata: Metadata = {}): FakeCustomer {
    return put({ id: newId("cus_"), object: "customer", email, created: nowSeconds(), livemode: false, metadata });
  }

  function createSession(f: Form): FakeSession {
    const mode = str(f, "mode");
    if (mode !== "subscription" && mode !== "payment")
      throw new ApiError(400, "This fake supports mode 'subscription' and 'payment'", "parameter_invalid", "mode");
    const priceId = str(f, "line_items", 0, "price");
    if (!priceId) throw new ApiError(400, "Missing line_items[0][price]", "parameter_missing", "line_items");
    const price = get<FakePrice>(priceId, "price", "price", "line_items[0][price]");
    if ((mode === "subscription") !== (price.type === "recurring"))
      throw new ApiError(400, `Price ${price.id} does not fit mode ${mode}`, "parameter_invalid", "line_items");
    const customer = str(f, "customer") ?? null;
    if (customer) get<FakeCustomer>(customer, "customer", "customer", "customer");
    const data = sub(f, mode === "subscription" ? "subscription_data" : "payment_intent_data");
    const trialDays = int(str(data, "trial_period_days")) ?? 0;
    const id = newId("cs_test_");
    plans.set(id, {
      price: price.id,
      trialDays,
      metadata: metadataOf(data),
      transferData: str(data, "transfer_data", "destination")
        ? { destination: str(data, "transfer_data", "destination")! }
        : null,
      applicationFeePercent: float(str(data, "application_fee_percent")) ?? null,
      applicationFeeAmount: int(str(data, "application_fee_amount")) ?? null,
    });
    const amount = trialDays > 0 ? 0 : price.unit_amount;
    const created = nowSeconds();
    return put({
      id,
      object: "checkout.session",
      mode,
      status: "open",
      payment_status: "unpaid",
      customer,
      customer_email: customer ? null : (str(f, "customer_email") ?? null),
      customer_creation: customer
        ? null
        : mode === "subscription"
          ? "always"
          : ((str(f, "customer_creation") as "always") ?? "if_required"),
      client_reference_id: str(f, "client_reference_id") ?? null,
      metadata: metadataOf(f),
      success_url: str(f, "success_url") ?? null,
      cancel_url: str(f, "cancel_url") ?? null,
      url: `${base}/checkout/${id}`,
      amount_subtotal: amount,
      amount_total: amount,
      currency: price.currency,
      subscription: null,
      payment_intent: null,
      invoice: null,
      created,
      expires_at: created + 24 * 3600,
      livemode: false,
    });
  }

  function updateSubscription(id: string, f: Form): FakeSubscription {
    const s = get<FakeSubscription>(id, "subscription", "subscription");
    if (s.status === "canceled" || s.status === "incomplete_expired")
      throw new ApiError(
        400,
        "A canceled subscription can only update its metadata",
        "invalid_canceled_subscription_fields",
      );
    const cancel = bool(str(f, "cancel_at_period_end"));
    if (cancel !== undefined) {
      s.cancel_at_period_end = cancel;
      s.cancel_at = cancel ? s.items.data[0].current_period_end : null;
      s.canceled_at = cancel ? nowSeconds() : null;
    }
    for (const [i, entry] of list(f, "items").entries()) {
      const itemId = str(entry, "id");
      const priceId = str(entry, "price");
      const item = s.items.data.find((it) => it.id === itemId);
      if (!item) throw missing("subscription item", itemId ?? "", `items[${i}][id]`);
      if (priceId) {
        const price = get<FakePrice>(priceId, "price", "price", `items[${i}][price]`);
        if (price.type !== "recurring")
          throw new ApiError(400, `Price ${priceId} is not recurring`, "parameter_invalid");
        item.price = price;
      }
    }
    if (sub(f, "metadata")) s.metadata = { ...s.metadata, ...metadataOf(f) };
    emit("customer.subscription.updated", s);
    return s;
  }

  function listSubscriptions(query: URLSearchParams) {
    const status = query.get("status");
    const customer = query.get("customer");
    const limit = Math.min(Math.max(int(query.get("limit") ?? undefined) ?? 10, 1), 100);
    let all = [...subscriptionOrder].reverse().map((id) => objects.get(id) as FakeSubscription);
    if (customer) all = all.filter((s) => s.customer === customer);
    if (status && status !== "all") all = all.filter((s) => s.status === status);
    // Without a status Stripe leaves out ended subscriptions.
    else if (!status) all = all.filter((s) => s.status !== "canceled" && s.status !== "incomplete_expired");
    const after = query.get("starting_after");
    const start = after ? all.findIndex((s) => s.id === after) + 1 : 0;
    if (after && start === 0) throw missing("subscription", after, "starting_after");
    const data = all.slice(start, start + limit);
    return { object: "list", url: "/v1/subscriptions", has_more: start + limit < all.length, data };
  }

  function createRefund(f: Form): FakeRefund {
    const piId =
      str(f, "payment_intent") ??
      (str(f, "charge") && get<FakeCharge>(str(f, "charge")!, "charge", "charge").payment_intent);
    if (!piId) throw new ApiError(400, "Provide payment_intent or charge", "parameter_missing", "payment_intent");
    const pi = get<FakePaymentIntent>(piId, "payment_intent", "payment_intent", "payment_intent");
    const charge = get<FakeCharge>(pi.latest_charge, "charge", "charge");
    const amount = int(str(f, "amount")) ?? charge.amount - charge.amount_refunded;
    if (amount <= 0 || charge.amount_refunded + amount > charge.amount)
      throw new ApiError(400, `Charge ${charge.id} has already been refunded.`, "charge_already_refunded");
    const refund = put<FakeRefund>({
      id: newId("re_"),
      object: "refund",
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: pi.id,
      status: "succeeded",
      created: nowSeconds(),
      metadata: metadataOf(f),
    });
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    emit("refund.created", refund);
    emit("charge.refunded", charge);
    return refund;
  }

  function createAccount(f: Form): FakeAccount {
    const type = str(f, "type") ?? "express";
    if (type !== "express")
      throw new ApiError(400, "This fake makes express accounts only", "parameter_invalid", "type");
    const requested = (c: string) => (bool(str(f, "capabilities", c, "requested")) ? "inactive" : undefined);
    return put<FakeAccount>({
      id: newId("acct_"),
      object: "account",
      type: "express",
      email: str(f, "email") ?? null,
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      capabilities: { card_payments: requested("card_payments"), transfers: requested("transfers") },
      created: nowSeconds(),
      metadata: metadataOf(f),
    });
  }

  function createPortalSession(f: Form): FakePortalSession {
    const customer = str(f, "customer");
    if (!customer) throw new ApiError(400, "Missing required param: customer.", "parameter_missing", "customer");
    get<FakeCustomer>(customer, "customer", "customer", "customer");
    const id = newId("bps_");
    return put<FakePortalSession>({
      id,
      object: "billing_portal.session",
      customer,
      return_url: str(f, "return_url") ?? null,
      url: `${base}/portal/${id}`,
      created: nowSeconds(),
      livemode: false,
    });
  }

  function createProduct(f: Form): FakeProduct {
    const name = str(f, "name");
    if (!name) throw new ApiError(400, "Missing required param: name.", "parameter_missing", "name");
    return put<FakeProduct>({
      id: newId("prod_"),
      object: "product",
      name,
      active: true,
      created: nowSeconds(),
      livemode: false,
      metadata: metadataOf(f),
    });
  }

  function createPrice(f: Form): FakePrice {
    const product = get<FakeProduct>(str(f, "product") ?? "", "product", "product", "product");
    const amount = int(str(f, "unit_amount"));
    const currency = str(f, "currency");
    if (amount === undefined || amount < 0 || !currency)
      throw new ApiError(400, "unit_amount and currency are required", "parameter_missing", "unit_amount");
    const interval = str(f, "recurring", "interval");
    if (interval !== undefined && interval !== "month" && interval !== "year")
      throw new ApiError(400, `Invalid interval: ${interval}`, "parameter_invalid", "recurring[interval]");
    return put<FakePrice>({
      id: newId("price_"),
      object: "price",
      product: product.id,
      unit_amount: amount,
      currency: currency.toLowerCase(),
      type: interval ? "recurring" : "one_time",
      recurring: interval ? { interval, interval_count: 1 } : null,
      active: true,
      created: nowSeconds(),
      livemode: false,
      metadata: metadataOf(f),
    });
  }

  function createAccountLink(f: Form) {
    const account = get<FakeAccount>(str(f, "account") ?? "", "account", "account", "account");
    onboardingUrls.set(account.id, { refresh: str(f, "refresh_url") ?? "", return: str(f, "return_url") ?? "" });
    const created = nowSeconds();
    return { object: "account_link", created, expires_at: created + 300, url: `${base}/onboarding/${account.id}` };
  }

  return {
    objects,
    subscriptionOrder,
    plans,
    onboardingUrls,
    events,
    deliveries,
    url: () => base,
    setUrl(url: string) {
      base = url;
    },
    holdDeliveries,
    releaseDeliveries,
    setWebhookUrl(url: string | null) {
      webhookUrl = url;
    },
    get,
    put,
    emit,
    signed,
    idle,
    createCustomer,
    createProduct,
    createPrice,
    createSession,
    updateSubscription,
    listSubscriptions,
    createRefund,
    createAccount,
    createAccountLink,
    createPortalSession,
  };
}
