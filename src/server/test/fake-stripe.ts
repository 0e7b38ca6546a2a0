import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import {
  addInterval,
  bool,
  float,
  int,
  list,
  metadataOf,
  newId,
  nowSeconds,
  parseForm,
  str,
  sub,
  type FakeAccount,
  type FakeCharge,
  type FakeCustomer,
  type FakeEvent,
  type FakeInvoice,
  type FakeObject,
  type FakePaymentIntent,
  type FakePortalSession,
  type FakePrice,
  type FakeProduct,
  type FakeRefund,
  type FakeSession,
  type FakeSubscription,
  type Form,
  type Interval,
  type Metadata,
  type SessionPlan,
  type SubscriptionStatus,
} from "./fake-stripe-objects";

/*
 * A fake Stripe for tests and benchmarks (issue 18): node:http on 127.0.0.1 and a free port,
 * speaking the part of Stripe's REST API Hearth's stripe provider uses, with the `stripe` package
 * pointed at it (host, port, protocol). State is in memory. What a customer or time would do at
 * Stripe (paying, a renewal, a period ending, onboarding) are test controls, as methods and as
 * small HTTP endpoints for browser tests; each emits the events Stripe would, signed as Stripe
 * signs them and, with `webhookUrl`, delivered there in order.
 */

export type FakeStripeOptions = {
  webhookSecret: string;
  /** Where each event is POSTed (with Stripe-Signature); none: events are only kept in `events`. */
  webhookUrl?: string;
};

/** A Stripe API error answer. */
class ApiError extends Error {
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

const missing = (kind: string, id: string, param = "id") =>
  new ApiError(404, `No such ${kind}: '${id}'`, "resource_missing", param);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

export async function startFakeStripe(options: FakeStripeOptions) {
  let webhookUrl = options.webhookUrl ?? null;
  const objects = new Map<string, FakeObject>();
  /** Subscriptions in creation order (Stripe lists newest first). */
  const subscriptionOrder: string[] = [];
  const plans = new Map<string, SessionPlan>();
  /** Per account link's account: where onboarding returns to. */
  const onboardingUrls = new Map<string, { refresh: string; return: string }>();
  const idempotent = new Map<string, { request: string; status: number; body: string }>();
  const events: FakeEvent[] = [];
  const deliveries: Array<{ eventId: string; status: number | null; error?: string }> = [];
  let delivery: Promise<void> = Promise.resolve();
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
    if (url) delivery = delivery.then(() => deliver(url, event));
    return event;
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
      });
      await res.arrayBuffer();
      deliveries.push({ eventId: event.id, status: res.status });
    } catch (err) {
      // Stripe keeps sending later events when one delivery fails; so does the fake.
      deliveries.push({ eventId: event.id, status: null, error: String(err) });
    }
  }

  /** Resolves when every event emitted so far has been delivered (or failed to be). */
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

  // ---- Test controls: what the customer, Stripe's clock or the account holder would do ------

  function invoiceFor(s: FakeSubscription, status: "paid" | "open", reason: FakeInvoice["billing_reason"]) {
    const item = s.items.data[0];
    const amount = item.price.unit_amount;
    const id = newId("in_");
    const invoice = put<FakeInvoice>({
      id,
      object: "invoice",
      customer: s.customer,
      status,
      billing_reason: reason,
      amount_due: amount,
      amount_paid: status === "paid" ? amount : 0,
      amount_remaining: status === "paid" ? 0 : amount,
      attempt_count: 1,
      currency: item.price.currency,
      hosted_invoice_url: `${base}/invoices/${id}`,
      invoice_pdf: `${base}/invoices/${id}/pdf`,
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { subscription: s.id, metadata: { ...s.metadata } },
      },
      application_fee_amount:
        s.application_fee_percent === null ? null : Math.round((amount * s.application_fee_percent) / 100),
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      created: nowSeconds(),
      livemode: false,
      metadata: {},
    });
    s.latest_invoice = invoice.id;
    return invoice;
  }

  /** The customer pays on the checkout page. */
  async function completeCheckout(sessionId: string): Promise<FakeSession> {
    const session = get<FakeSession>(sessionId, "checkout.session", "checkout session");
    if (session.status !== "open") throw new ApiError(400, `Checkout session ${sessionId} is ${session.status}`);
    const plan = plans.get(sessionId)!;
    const price = get<FakePrice>(plan.price, "price", "price");
    const now = nowSeconds();
    if (!session.customer && (session.mode === "subscription" || session.customer_creation === "always"))
      session.customer = createCustomer(session.customer_email).id;
    session.status = "complete";
    const after: Array<[string, FakeObject]> = [];
    if (session.mode === "subscription") {
      const interval = price.recurring!.interval;
      const trialEnd = plan.trialDays > 0 ? now + plan.trialDays * 86_400 : null;
      const id = newId("sub_");
      const s = put<FakeSubscription>({
        id,
        object: "subscription",
        customer: session.customer!,
        status: trialEnd ? "trialing" : "active",
        items: {
          object: "list",
          data: [
            {
              id: newId("si_"),
              object: "subscription_item",
              price,
              quantity: 1,
              subscription: id,
              current_period_start: now,
              current_period_end: trialEnd ?? addInterval(now, interval),
              created: now,
              metadata: {},
            },
          ],
          has_more: false,
          url: `/v1/subscription_items?subscription=${id}`,
        },
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        ended_at: null,
        created: now,
        start_date: now,
        trial_start: trialEnd ? now : null,
        trial_end: trialEnd,
        currency: price.currency,
        latest_invoice: null,
        application_fee_percent: plan.applicationFeePercent,
        transfer_data: plan.transferData,
        livemode: false,
        metadata: plan.metadata,
      });
      subscriptionOrder.push(id);
      session.subscription = id;
      session.payment_status = trialEnd ? "no_payment_required" : "paid";
      after.push(["customer.subscription.created", s]);
      if (!trialEnd) {
        const invoice = invoiceFor(s, "paid", "subscription_create");
        session.invoice = invoice.id;
        after.push(["invoice.paid", invoice], ["invoice.payment_succeeded", invoice]);
      }
    } else {
      const pi = put<FakePaymentIntent>({
        id: newId("pi_"),
        object: "payment_intent",
        amount: price.unit_amount,
        amount_received: price.unit_amount,
        currency: price.currency,
        status: "succeeded",
        customer: session.customer,
        latest_charge: newId("ch_"),
        transfer_data: plan.transferData,
        application_fee_amount: plan.applicationFeeAmount,
        created: now,
        livemode: false,
        metadata: plan.metadata,
      });
      put<FakeCharge>({
        id: pi.latest_charge,
        object: "charge",
        amount: pi.amount,
        amount_captured: pi.amount,
        amount_refunded: 0,
        refunded: false,
        paid: true,
        status: "succeeded",
        currency: pi.currency,
        customer: pi.customer,
        payment_intent: pi.id,
        created: now,
        livemode: false,
        metadata: plan.metadata,
      });
      session.payment_intent = pi.id;
      session.payment_status = "paid";
      after.push(["payment_intent.succeeded", pi]);
    }
    emit("checkout.session.completed", session);
    for (const [type, object] of after) emit(type, object);
    await idle();
    return session;
  }

  /**
   * Stripe's clock reaches the period's end and charges the next one (a trial's end too). With
   * `succeed: false` the invoice stays open and the subscription goes past due; a later successful
   * renew of a past-due subscription pays that open invoice (the retry that recovers it).
   */
  async function renew(subId: string, { succeed = true }: { succeed?: boolean } = {}): Promise<FakeSubscription> {
    const s = get<FakeSubscription>(subId, "subscription", "subscription");
    if (s.status === "canceled") throw new ApiError(400, `Subscription ${subId} is canceled`);
    const open = s.latest_invoice ? (objects.get(s.latest_invoice) as FakeInvoice | undefined) : undefined;
    let invoice: FakeInvoice;
    if (s.status === "past_due" && open?.status === "open") {
      invoice = open;
      invoice.attempt_count += 1;
    } else {
      const item = s.items.data[0];
      item.current_period_start = item.current_period_end;
      item.current_period_end = addInterval(item.current_period_start, item.price.recurring!.interval as Interval);
      invoice = invoiceFor(s, "open", "subscription_cycle");
    }
    if (succeed) {
      invoice.status = "paid";
      invoice.amount_paid = invoice.amount_due;
      invoice.amount_remaining = 0;
      s.status = "active";
      emit("invoice.paid", invoice);
      emit("invoice.payment_succeeded", invoice);
    } else {
      s.status = "past_due";
      emit("invoice.payment_failed", invoice);
    }
    emit("customer.subscription.updated", s);
    await idle();
    return s;
  }

  function end(s: FakeSubscription, at: number) {
    s.status = "canceled";
    s.ended_at = at;
    s.canceled_at ??= at;
    emit("customer.subscription.deleted", s);
  }

  /** A subscription set to cancel at its period's end reaches it. */
  async function endPeriod(subId: string): Promise<FakeSubscription> {
    const s = get<FakeSubscription>(subId, "subscription", "subscription");
    if (!s.cancel_at_period_end) throw new ApiError(400, `Subscription ${subId} is not set to cancel`);
    end(s, s.items.data[0].current_period_end);
    await idle();
    return s;
  }

  /** Cancelled at once (from Stripe's dashboard, or after the retries of a failed payment ran out). */
  async function cancelNow(subId: string): Promise<FakeSubscription> {
    const s = get<FakeSubscription>(subId, "subscription", "subscription");
    if (s.status === "canceled") throw new ApiError(400, `Subscription ${subId} is already canceled`);
    end(s, nowSeconds());
    await idle();
    return s;
  }

  /** The portal's 'Cancel plan': cancel at the period's end. */
  async function cancelAtPeriodEnd(subId: string): Promise<FakeSubscription> {
    const s = updateSubscription(subId, { cancel_at_period_end: "true" });
    await idle();
    return s;
  }

  /** The owner finishes Stripe's onboarding form. */
  async function completeOnboarding(accountId: string): Promise<FakeAccount> {
    const a = get<FakeAccount>(accountId, "account", "account");
    a.charges_enabled = a.payouts_enabled = a.details_submitted = true;
    a.capabilities = { card_payments: "active", transfers: "active" };
    emit("account.updated", a, a.id);
    await idle();
    return a;
  }

  /** Changes a subscription behind Hearth's back: no event (drift for reconciliation to find). */
  function setSubscriptionStatus(subId: string, status: SubscriptionStatus): FakeSubscription {
    const s = get<FakeSubscription>(subId, "subscription", "subscription");
    s.status = status;
    if (status === "canceled") s.ended_at ??= nowSeconds();
    return s;
  }

  // ---- HTTP ----------------------------------------------------------------------------------

  type Route = [method: string, pattern: RegExp, handler: (m: string[], f: Form, q: URLSearchParams) => unknown];
  const api: Route[] = [
    ["POST", /^\/v1\/customers$/, (_, f) => createCustomer(str(f, "email") ?? null, metadataOf(f))],
    ["GET", /^\/v1\/customers\/([^/]+)$/, ([id]) => get(id, "customer", "customer")],
    [
      "POST",
      /^\/v1\/products$/,
      (_, f) => {
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
      },
    ],
    [
      "POST",
      /^\/v1\/prices$/,
      (_, f) => {
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
      },
    ],
    ["GET", /^\/v1\/prices\/([^/]+)$/, ([id]) => get(id, "price", "price")],
    ["POST", /^\/v1\/checkout\/sessions$/, (_, f) => createSession(f)],
    ["GET", /^\/v1\/checkout\/sessions\/([^/]+)$/, ([id]) => get(id, "checkout.session", "checkout.session")],
    ["GET", /^\/v1\/subscriptions$/, (_, __, q) => listSubscriptions(q)],
    ["GET", /^\/v1\/subscriptions\/([^/]+)$/, ([id]) => get(id, "subscription", "subscription")],
    ["POST", /^\/v1\/subscriptions\/([^/]+)$/, ([id], f) => updateSubscription(id, f)],
    ["GET", /^\/v1\/invoices\/([^/]+)$/, ([id]) => get(id, "invoice", "invoice")],
    ["POST", /^\/v1\/refunds$/, (_, f) => createRefund(f)],
    ["GET", /^\/v1\/refunds\/([^/]+)$/, ([id]) => get(id, "refund", "refund")],
    ["GET", /^\/v1\/payment_intents\/([^/]+)$/, ([id]) => get(id, "payment_intent", "payment_intent")],
    ["GET", /^\/v1\/charges\/([^/]+)$/, ([id]) => get(id, "charge", "charge")],
    ["POST", /^\/v1\/billing_portal\/sessions$/, (_, f) => createPortalSession(f)],
    ["POST", /^\/v1\/accounts$/, (_, f) => createAccount(f)],
    ["GET", /^\/v1\/accounts\/([^/]+)$/, ([id]) => get(id, "account", "account")],
    [
      "POST",
      /^\/v1\/account_links$/,
      (_, f) => {
        const account = get<FakeAccount>(str(f, "account") ?? "", "account", "account", "account");
        const refresh = str(f, "refresh_url") ?? "";
        const ret = str(f, "return_url") ?? "";
        onboardingUrls.set(account.id, { refresh, return: ret });
        const created = nowSeconds();
        return { object: "account_link", created, expires_at: created + 300, url: `${base}/onboarding/${account.id}` };
      },
    ],
  ];

  /** The pages a browser test clicks through, and the controls as HTTP endpoints. */
  const pages: Route[] = [
    [
      "GET",
      /^\/checkout\/([^/]+)$/,
      ([id]) => {
        const s = get<FakeSession>(id, "checkout.session", "checkout.session");
        const price = get<FakePrice>(plans.get(id)!.price, "price", "price");
        const amount = `${(price.unit_amount / 100).toFixed(2)} ${price.currency.toUpperCase()}`;
        return page(
          "Fake Stripe Checkout",
          `<p>${escapeHtml(s.mode)}: ${escapeHtml(amount)}${price.recurring ? ` / ${price.recurring.interval}` : ""}</p>` +
            `<form method="post" action="/checkout/${s.id}/complete"><button type="submit">Pay</button></form>` +
            (s.cancel_url ? `<p><a href="${escapeHtml(s.cancel_url)}">Cancel</a></p>` : ""),
        );
      },
    ],
    [
      "POST",
      /^\/checkout\/([^/]+)\/complete$/,
      async ([id]) => {
        const s = await completeCheckout(id);
        return redirect((s.success_url ?? base).replace("{CHECKOUT_SESSION_ID}", s.id));
      },
    ],
    [
      "GET",
      /^\/portal\/([^/]+)$/,
      ([id]) => {
        const p = get<FakePortalSession>(id, "billing_portal.session", "billing_portal.session");
        const subs = subscriptionOrder
          .map((sid) => objects.get(sid) as FakeSubscription)
          .filter((s) => s.customer === p.customer && s.status !== "canceled");
        const rows = subs.map(
          (s) =>
            `<li>${escapeHtml(s.id)} (${s.status}${s.cancel_at_period_end ? ", cancels at period end" : ""})` +
            (s.cancel_at_period_end
              ? ""
              : ` <form method="post" action="/portal/${p.id}/cancel"><input type="hidden" name="subscription" value="${s.id}"><button type="submit">Cancel plan</button></form>`) +
            "</li>",
        );
        const back = p.return_url ? `<p><a href="${escapeHtml(p.return_url)}">Return</a></p>` : "";
        return page("Fake Stripe customer portal", `<ul>${rows.join("")}</ul>${back}`);
      },
    ],
    [
      "POST",
      /^\/portal\/([^/]+)\/cancel$/,
      async ([id], f) => {
        const p = get<FakePortalSession>(id, "billing_portal.session", "billing_portal.session");
        const s = get<FakeSubscription>(str(f, "subscription") ?? "", "subscription", "subscription");
        if (s.customer !== p.customer) throw missing("subscription", s.id);
        await cancelAtPeriodEnd(s.id);
        return redirect(p.return_url ?? base);
      },
    ],
    [
      "GET",
      /^\/onboarding\/([^/]+)$/,
      ([id]) => {
        const a = get<FakeAccount>(id, "account", "account");
        return page(
          "Fake Stripe Connect onboarding",
          `<p>${escapeHtml(a.email ?? a.id)}</p><form method="post" action="/onboarding/${a.id}/complete"><button type="submit">Finish onboarding</button></form>`,
        );
      },
    ],
    [
      "POST",
      /^\/onboarding\/([^/]+)\/complete$/,
      async ([id]) => {
        await completeOnboarding(id);
        return redirect(onboardingUrls.get(id)?.return || base);
      },
    ],
    ["POST", /^\/test\/checkout\/([^/]+)\/complete$/, ([id]) => completeCheckout(id)],
    [
      "POST",
      /^\/test\/subscriptions\/([^/]+)\/renew$/,
      ([id], f, q) => renew(id, { succeed: (str(f, "succeed") ?? q.get("succeed")) !== "false" }),
    ],
    ["POST", /^\/test\/subscriptions\/([^/]+)\/end-period$/, ([id]) => endPeriod(id)],
    ["POST", /^\/test\/subscriptions\/([^/]+)\/cancel$/, ([id]) => cancelNow(id)],
    [
      "POST",
      /^\/test\/subscriptions\/([^/]+)\/status$/,
      ([id], f, q) => setSubscriptionStatus(id, (str(f, "status") ?? q.get("status") ?? "") as SubscriptionStatus),
    ],
    ["POST", /^\/test\/accounts\/([^/]+)\/complete-onboarding$/, ([id]) => completeOnboarding(id)],
    ["GET", /^\/test\/events$/, () => ({ object: "list", data: events })],
  ];

  type Redirect = { redirect: string };
  const redirect = (to: string): Redirect => ({ redirect: to });

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    if (typeof body === "string") {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers }).end(body);
      return;
    }
    const json = JSON.stringify(body, null, 2);
    res.writeHead(status, { "content-type": "application/json", "request-id": newId("req_"), ...headers }).end(json);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", base);
    const method = req.method ?? "GET";
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const contentType = req.headers["content-type"] ?? "";
    const form = contentType.includes("application/json") ? (JSON.parse(raw || "{}") as Form) : parseForm(raw);
    const isApi = url.pathname.startsWith("/v1/");
    const routes = isApi ? api : pages;
    const match = routes
      .map(([m, pattern, handler]) => [m, pattern.exec(url.pathname), handler] as const)
      .find(([m, found]) => found && m === method);

    if (isApi) {
      const auth = req.headers.authorization ?? "";
      if (!/^Bearer sk_test_\w+/.test(auth))
        throw new ApiError(401, "Invalid API Key provided: this fake takes any sk_test_ key", undefined, undefined);
      if (!match) throw new ApiError(404, `Unrecognized request URL (${method}: ${url.pathname})`);
      const key = method === "POST" ? req.headers["idempotency-key"] : undefined;
      const request = `${method} ${url.pathname} ${raw}`;
      if (typeof key === "string") {
        const seen = idempotent.get(`${auth} ${key}`);
        if (seen && seen.request !== request)
          throw new ApiError(
            400,
            "Keys for idempotent requests can only be used with the same parameters they were first used with.",
            undefined,
            undefined,
            "idempotency_error",
          );
        if (seen) {
          res
            .writeHead(seen.status, { "content-type": "application/json", "idempotent-replayed": "true" })
            .end(seen.body);
          return;
        }
      }
      let status = 200;
      let body: unknown;
      try {
        body = await match[2](match[1]!.slice(1), form, url.searchParams);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        status = err.status;
        body = errorBody(err);
      }
      const json = JSON.stringify(body, null, 2);
      // Stripe replays the first answer to a key, errors included (but not its own 500s).
      if (typeof key === "string") idempotent.set(`${auth} ${key}`, { request, status, body: json });
      res.writeHead(status, { "content-type": "application/json", "request-id": newId("req_") }).end(json);
      return;
    }
    if (!match) throw new ApiError(404, `Not found: ${method} ${url.pathname}`);
    const out = await match[2](match[1]!.slice(1), form, url.searchParams);
    if (out && typeof out === "object" && "redirect" in out) {
      res.writeHead(303, { location: (out as Redirect).redirect }).end();
      return;
    }
    send(res, 200, out);
  }

  const errorBody = (err: ApiError) => ({
    error: {
      type: err.type,
      message: err.message,
      ...(err.code ? { code: err.code } : {}),
      ...(err.param ? { param: err.param } : {}),
    },
  });

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return res.destroy();
      if (err instanceof ApiError) send(res, err.status, errorBody(err));
      else send(res, 500, { error: { type: "api_error", message: String(err) } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;

  return {
    url: base,
    port,
    /** The `api` of Hearth's Stripe settings (STRIPE_API_BASE=url does the same). */
    api: { host: "127.0.0.1", port, protocol: "http" as const },
    /** Every event emitted, oldest first. */
    events,
    /** Each webhook delivery's outcome (status null: the request failed). */
    deliveries,
    /** The webhook body and Stripe-Signature header of an event, as Stripe would send them. */
    signed,
    /** Starts (or stops, with null) POSTing events to a URL; earlier events are not resent. */
    setWebhookUrl(url: string | null) {
      webhookUrl = url;
    },
    idle,
    /** The stored object itself (changing it changes what the API answers, without an event). */
    object<T extends FakeObject = FakeObject>(id: string): T | undefined {
      return objects.get(id) as T | undefined;
    },
    completeCheckout,
    renew,
    endPeriod,
    cancelNow,
    cancelAtPeriodEnd,
    completeOnboarding,
    setSubscriptionStatus,
    async close() {
      await idle();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
