import {
  addInterval,
  newId,
  nowSeconds,
  type FakeAccount,
  type FakeCharge,
  type FakeInvoice,
  type FakeObject,
  type FakePaymentIntent,
  type FakePrice,
  type FakeSession,
  type FakeSubscription,
  type Interval,
  type SubscriptionStatus,
} from "./fake-stripe-objects";
import { ApiError, type FakeStripeStore } from "./fake-stripe-store";

/*
 * The fake Stripe's test controls: what the customer (paying), Stripe's clock (renewals, a
 * period's end) or an account holder (onboarding) would do, each emitting the events Stripe
 * would. Each resolves once its events are delivered.
 */

export type FakeStripeControls = ReturnType<typeof createControls>;

export function createControls(store: FakeStripeStore) {
  const { objects, subscriptionOrder, plans, get, put, emit, idle, createCustomer, updateSubscription } = store;

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
      hosted_invoice_url: `${store.url()}/invoices/${id}`,
      invoice_pdf: `${store.url()}/invoices/${id}/pdf`,
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

  return {
    completeCheckout,
    renew,
    endPeriod,
    cancelNow,
    cancelAtPeriodEnd,
    completeOnboarding,
    setSubscriptionStatus,
  };
}
