import { and, eq, inArray, or, sql } from "drizzle-orm";
import { entitlementOpen, PAYMENT_MESSAGES as PM, type EntitlementStatus } from "#shared/payments";
import type { AppContext } from "#server/context";
import type { Queryable } from "#server/db/client";
import {
  checkoutSessions,
  communities,
  communityMembers,
  entitlements,
  payments,
  prices,
} from "#server/db/schema/index";
import { announceMembers } from "#server/lib/community-access";
import { entitlementOpenSql } from "#server/lib/entitlement-access";
import { enqueueJob } from "#server/lib/jobs";
import { actionMail } from "#server/lib/mail";
import { notify } from "#server/lib/notifications";
import { publishMembershipChange } from "#server/lib/realtime";
import type { PaymentProvider, ProviderInvoice, ProviderSubscription, ProviderSubscriptionStatus } from "./provider";

/*
 * The one writer of entitlements (issue 18). Every change starts from the provider's own object,
 * re-read inside a lock on that object, so events that arrive twice, out of order or in two
 * processes at once end in the provider's current state, applied once. A community membership
 * bought through a tier follows its entitlement: added when it opens, removed (posts kept) when it
 * closes. Staff are never removed, and members who joined before payments or through an invite
 * hold no entitlement and are left alone.
 */

export const LAPSE_QUEUE = "payments.lapse";
const DAY_MS = 86_400_000;

export type EntitlementRow = typeof entitlements.$inferSelect;

/** Serializes every change to one provider object across processes, until the transaction ends. */
export async function lockObject(tx: Queryable, key: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`hearth:pay:${key}`}))`);
}

/** Stripe's subscription status as an entitlement status (null: not paid for yet, nothing to open). */
export function statusOf(sub: Pick<ProviderSubscription, "status" | "cancelAtPeriodEnd">): EntitlementStatus | null {
  const map: Record<ProviderSubscriptionStatus, EntitlementStatus | null> = {
    trialing: "trialing",
    active: "active",
    past_due: "past_due",
    unpaid: "past_due",
    canceled: "expired",
    incomplete: null,
    incomplete_expired: null,
    paused: "expired",
  };
  const status = map[sub.status];
  // A cancellation scheduled for the period's end keeps access until then.
  return (status === "active" || status === "trialing") && sub.cancelAtPeriodEnd ? "canceled" : status;
}

async function priceByProviderId(tx: Queryable, provider: PaymentProvider, providerPriceId: string, hearthId?: string) {
  const [row] = await tx
    .select()
    .from(prices)
    .where(
      hearthId
        ? sql`${prices.providerPriceId} = ${providerPriceId} OR ${prices.id} = ${hearthId}::uuid`
        : provider.name === "simulated"
          ? sql`${prices.providerPriceId} = ${providerPriceId} OR 'sim_price_' || ${prices.id}::text = ${providerPriceId}`
          : eq(prices.providerPriceId, providerPriceId),
    )
    .orderBy(sql`${prices.providerPriceId} = ${providerPriceId} DESC`)
    .limit(1);
  return row ?? null;
}

/** Whether an entitlement that changed opens its community's membership (open now, not before). */
export function joins(e: EntitlementRow, wasOpen: boolean): boolean {
  return e.kind === "community" && !!e.communityId && !wasOpen && isOpen(e);
}

/**
 * Adds or removes the community membership an entitlement pays for, after its row changed. Opening
 * adds the member (unless banned); closing removes a plain member who holds no other open
 * entitlement there. Returns whether the membership changed.
 */
export async function syncMembership(tx: Queryable, e: EntitlementRow, wasOpen: boolean): Promise<boolean> {
  if (joins(e, wasOpen)) {
    const insert = await announceMembers(tx, [{ community: { id: e.communityId! }, userId: e.userId }]);
    await insert?.();
    return !!insert;
  }
  if (e.kind !== "community" || !e.communityId) return false;
  if (wasOpen && !isOpen(e)) {
    const others = await tx.execute(sql`
      SELECT 1 FROM entitlements o WHERE o.user_id = ${e.userId} AND o.community_id = ${e.communityId}
         AND o.kind = 'community' AND o.id <> ${e.id} AND ${entitlementOpenSql("o")}`);
    if (others.rows.length > 0) return false;
    const removed = await tx
      .delete(communityMembers)
      .where(
        and(
          eq(communityMembers.communityId, e.communityId),
          eq(communityMembers.userId, e.userId),
          eq(communityMembers.role, "member"),
        ),
      )
      .returning({ userId: communityMembers.userId });
    if (removed.length > 0) await publishMembershipChange(tx, [e.userId]);
    return removed.length > 0;
  }
  return false;
}

const isOpen = (e: EntitlementRow | undefined) =>
  !!e && entitlementOpen({ status: e.status, current_period_end: e.currentPeriodEnd, grace_ends_at: e.graceEndsAt });

/** When the entitlement's access ends by itself (a scheduled cancellation, a grace period). */
function lapseAt(e: EntitlementRow): Date | null {
  if (e.status === "canceled") return e.currentPeriodEnd;
  if (e.status === "past_due") return e.graceEndsAt;
  return null;
}

async function scheduleLapse(tx: Queryable, e: EntitlementRow) {
  const at = lapseAt(e);
  if (!at) return;
  await enqueueJob(
    tx,
    LAPSE_QUEUE,
    { entitlementId: e.id },
    { runAt: at, singletonKey: `lapse:${e.id}:${at.getTime()}` },
  );
}

/**
 * Mirrors one subscription: re-reads it from the provider inside the object's lock and writes the
 * entitlement it pays for (made on its first sight, from the metadata Hearth put on the checkout).
 * Returns the entitlement, or null when there is nothing to open yet (incomplete, unknown price).
 */
export async function applySubscription(
  ctx: AppContext,
  provider: PaymentProvider,
  subscriptionId: string,
): Promise<EntitlementRow | null> {
  return ctx.db.transaction(async (tx) => {
    await lockObject(tx, `${provider.name}:${subscriptionId}`);
    const sub = await provider.getSubscription(subscriptionId);
    if (!sub) return null;
    const written = await writeSubscription(ctx, tx, provider, sub);
    // Last before the commit: adding a member locks the community's row (its member count), which
    // every other purchase in that community waits for.
    if (written) await syncMembership(tx, written.row, written.wasOpen);
    return written?.row ?? null;
  });
}

/** A subscription written, and whether its entitlement was open before (for syncMembership). */
export type WrittenSubscription = { row: EntitlementRow; wasOpen: boolean };

type FoundEntitlement = { row: EntitlementRow; currentPriceRef: string | null };
type PriceRow = typeof prices.$inferSelect;

/** What writeSubscription reads first, read for many Stripe subscriptions in two statements (a batch). */
export type SubscriptionReads = { found: Map<string, FoundEntitlement>; prices: PriceRow[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The entitlements of these subscriptions (with their prices' provider ids), and the prices they
 * name where that changed or on a first sight (by provider id, or Hearth's id in the metadata), as
 * writeSubscription would read them one by one (Stripe's price ids; not the simulated provider's).
 */
export async function readSubscriptions(
  tx: Queryable,
  provider: PaymentProvider,
  subs: ProviderSubscription[],
): Promise<SubscriptionReads> {
  if (subs.length === 0) return { found: new Map(), prices: [] };
  const found = await findEntitlements(
    tx,
    provider,
    subs.map((sub) => sub.id),
  );
  const changed = subs.filter((sub) => found.get(sub.id)?.currentPriceRef !== sub.providerPriceId);
  const refs = [...new Set(changed.map((sub) => sub.providerPriceId))];
  const ids = [
    ...new Set(
      changed
        .filter((sub) => !found.has(sub.id) && UUID.test(sub.metadata.price_id ?? ""))
        .map((sub) => sub.metadata.price_id!),
    ),
  ];
  const named =
    refs.length + ids.length > 0
      ? await tx
          .select()
          .from(prices)
          .where(or(inArray(prices.providerPriceId, refs), ids.length ? inArray(prices.id, ids) : undefined))
      : [];
  return { found, prices: named };
}

/** The entitlements of these subscriptions, with their prices' provider ids, by subscription id. */
async function findEntitlements(tx: Queryable, provider: PaymentProvider, subscriptionIds: string[]) {
  const rows = await tx
    .select({ row: entitlements, currentPriceRef: prices.providerPriceId })
    .from(entitlements)
    .leftJoin(prices, eq(prices.id, entitlements.priceId))
    .where(
      and(eq(entitlements.provider, provider.name), inArray(entitlements.providerSubscriptionId, subscriptionIds)),
    );
  return new Map<string, FoundEntitlement>(rows.map((r) => [r.row.providerSubscriptionId!, r]));
}

/** priceByProviderId over prices read before (readSubscriptions). */
const pickPrice = (list: PriceRow[], providerPriceId: string, hearthId?: string) =>
  list.find((p) => p.providerPriceId === providerPriceId) ??
  (hearthId ? list.find((p) => p.id === hearthId) : undefined) ??
  null;

/** What writing a subscription's entitlement comes to: nothing, an update of its row, or a new row. */
type SubscriptionPlan =
  | { write: "none"; result: WrittenSubscription | null }
  | { write: "update"; current: EntitlementRow; fields: Partial<EntitlementRow> }
  | { write: "insert"; values: typeof entitlements.$inferInsert; checkoutId: string | null };

/**
 * Writes the entitlement of a subscription just re-read from the provider, inside a transaction
 * holding the subscription's lock (applySubscription, or a batch of events: event-batch.ts). The
 * membership it pays for is the caller's to sync, last.
 */
export async function writeSubscription(
  ctx: AppContext,
  tx: Queryable,
  provider: PaymentProvider,
  sub: ProviderSubscription,
): Promise<WrittenSubscription | null> {
  return (await writeSubscriptions(ctx, tx, provider, [sub])).get(sub.id) ?? null;
}

/**
 * writeSubscription for many subscriptions (a batch of events, each subscription once): the updates
 * one by one, every new entitlement in one insert, the checkouts they complete in one update.
 * Returns what was written, by subscription id (none for one with nothing to open yet).
 */
export async function writeSubscriptions(
  ctx: AppContext,
  tx: Queryable,
  provider: PaymentProvider,
  subs: ProviderSubscription[],
  /** Their entitlements and prices, read already (a batch: readSubscriptions). */
  pre?: SubscriptionReads,
): Promise<Map<string, WrittenSubscription>> {
  const out = new Map<string, WrittenSubscription>();
  const written: { row: EntitlementRow; current?: EntitlementRow }[] = [];
  const inserts: Extract<SubscriptionPlan, { write: "insert" }>[] = [];
  for (const sub of subs) {
    const plan = await planSubscription(ctx, tx, provider, sub, pre);
    if (plan.write === "none") {
      if (plan.result) out.set(sub.id, plan.result);
    } else if (plan.write === "update") {
      const [row] = await tx
        .update(entitlements)
        .set(plan.fields)
        .where(eq(entitlements.id, plan.current.id))
        .returning();
      written.push({ row, current: plan.current });
    } else inserts.push(plan);
  }
  if (inserts.length > 0) {
    const rows = await tx
      .insert(entitlements)
      .values(inserts.map((i) => i.values))
      .returning();
    written.push(...rows.map((row) => ({ row })));
    // First sight without its checkout's event (a missed webhook, the reconciliation): the
    // member's waiting page learns it too.
    const bySubscription = new Map(rows.map((r) => [r.providerSubscriptionId, r]));
    const firstSeen = inserts.flatMap((i) => {
      const row = bySubscription.get(i.values.providerSubscriptionId ?? null);
      return row && i.checkoutId ? [{ checkoutId: i.checkoutId, row }] : [];
    });
    if (firstSeen.length > 0)
      await tx.execute(sql`
        UPDATE checkout_sessions c SET status = 'complete', entitlement_id = v.e, updated_at = now()
          FROM unnest(${sql.param(firstSeen.map((f) => f.checkoutId))}::uuid[],
                      ${sql.param(firstSeen.map((f) => f.row.userId))}::text[],
                      ${sql.param(firstSeen.map((f) => f.row.id))}::uuid[]) AS v(id, u, e)
         WHERE c.id = v.id AND c.user_id = v.u AND c.status = 'open'`);
  }
  for (const { row, current } of written) {
    await scheduleLapse(tx, row);
    if (row.status === "past_due" && current?.status !== "past_due") await tellPastDue(ctx, tx, row);
    out.set(row.providerSubscriptionId!, { row, wasOpen: isOpen(current) });
  }
  return out;
}

/** What writeSubscription will do for one subscription (reading what `pre` does not hold). */
async function planSubscription(
  ctx: AppContext,
  tx: Queryable,
  provider: PaymentProvider,
  sub: ProviderSubscription,
  pre?: SubscriptionReads,
): Promise<SubscriptionPlan> {
  // The entitlement with its price's provider id: the price is looked up again only when it changed.
  const found = (pre?.found ?? (await findEntitlements(tx, provider, [sub.id]))).get(sub.id);
  const current = found?.row;
  const status = statusOf(sub);
  if (!current && status === null) return { write: "none", result: null };
  const samePrice = !!current && found.currentPriceRef === sub.providerPriceId;
  const hearthPriceId = current ? undefined : sub.metadata.price_id;
  const price = samePrice
    ? null
    : pre
      ? pickPrice(pre.prices, sub.providerPriceId, hearthPriceId)
      : await priceByProviderId(tx, provider, sub.providerPriceId, hearthPriceId);
  if (!current && (!price || !sub.metadata.user_id)) {
    ctx.log.warn({ subscription: sub.id }, "payments: a subscription Hearth did not start (no price or user); ignored");
    return { write: "none", result: null };
  }
  // A grace period that ran out stays ended while the provider keeps retrying (still past due):
  // only a paid invoice (active) opens it again, never a later event or the reconciliation.
  const lapsed = current?.status === "expired" && status === "past_due";
  const next = lapsed ? "expired" : (status ?? current!.status);
  const now = new Date();
  let graceEndsAt = current?.graceEndsAt ?? null;
  if (next === "past_due" && !graceEndsAt) {
    const communityId = price?.communityId ?? current?.communityId;
    const [c] = communityId
      ? await tx.select({ graceDays: communities.graceDays }).from(communities).where(eq(communities.id, communityId))
      : [];
    graceEndsAt = new Date(now.getTime() + (c?.graceDays ?? 7) * DAY_MS);
  }
  if (next !== "past_due") graceEndsAt = null;
  const fields = {
    status: next,
    providerCustomerId: sub.customerId,
    currentPeriodEnd: next === "expired" ? (current?.currentPeriodEnd ?? sub.currentPeriodEnd) : sub.currentPeriodEnd,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    trialEndsAt: sub.trialEnd,
    graceEndsAt,
    endedAt: next === "expired" ? (current?.endedAt ?? now) : null,
    providerUpdatedAt: sub.updatedAt,
    updatedAt: now,
    ...(price
      ? {
          priceId: price.id,
          tierId: price.tierId,
          amount: price.amount,
          currency: price.currency,
          interval: price.interval,
        }
      : {}),
  };
  if (current)
    // Nothing changed (a repeated or older event, a reconciliation pass): no write, nothing to tell.
    return !price && unchanged(current, fields)
      ? { write: "none", result: { row: current, wasOpen: isOpen(current) } }
      : { write: "update", current, fields };
  const checkoutId = sub.metadata.checkout_id;
  return {
    write: "insert",
    values: {
      ...fields,
      userId: sub.metadata.user_id!,
      kind: price!.product === "creator_plan" ? "creator_plan" : "community",
      communityId: price!.communityId,
      priceId: price!.id,
      amount: price!.amount,
      currency: price!.currency,
      interval: price!.interval,
      provider: provider.name,
      providerSubscriptionId: sub.id,
    },
    checkoutId: checkoutId && UUID.test(checkoutId) ? checkoutId : null,
  };
}

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/**
 * Whether writing `fields` would leave the entitlement as it is. updatedAt and providerUpdatedAt
 * aside: Stripe's is the time of the read, new on every re-read, so comparing it would rewrite an
 * unchanged entitlement each time one of its events is applied.
 */
function unchanged(
  e: EntitlementRow,
  f: Pick<
    EntitlementRow,
    | "status"
    | "providerCustomerId"
    | "currentPeriodEnd"
    | "cancelAtPeriodEnd"
    | "trialEndsAt"
    | "graceEndsAt"
    | "endedAt"
  >,
) {
  return (
    e.status === f.status &&
    e.providerCustomerId === f.providerCustomerId &&
    e.cancelAtPeriodEnd === f.cancelAtPeriodEnd &&
    sameTime(e.currentPeriodEnd, f.currentPeriodEnd) &&
    sameTime(e.trialEndsAt, f.trialEndsAt) &&
    sameTime(e.graceEndsAt, f.graceEndsAt) &&
    sameTime(e.endedAt, f.endedAt)
  );
}

/** A failed renewal: the member hears it in the bell and by email, with the grace period's end. */
async function tellPastDue(ctx: AppContext, tx: Queryable, e: EntitlementRow) {
  const [who] = (
    await tx.execute<{ email: string; name: string | null }>(sql`
      SELECT u.email, c.name FROM "user" u LEFT JOIN communities c ON c.id = ${e.communityId}::uuid WHERE u.id = ${e.userId}`)
  ).rows;
  if (!who) return;
  const until = e.graceEndsAt ? e.graceEndsAt.toUTCString().slice(0, 16) : "soon";
  const title = who.name ? `Your payment for ${who.name} failed` : "Your payment failed";
  const body = `${PM.pastDue} Your access stays open until ${until}.`;
  if (e.communityId)
    await notify(tx, {
      recipients: [e.userId],
      actorId: null,
      communityId: e.communityId,
      type: "other",
      title,
      body,
      data: { billing: true },
    });
  await ctx.mailer.send(actionMail(who.email, title, body, "Update your payment", `${ctx.config.publicUrl}/billing`), {
    db: tx,
  });
}

/**
 * A completed checkout: a subscription is applied from the provider; a one-time purchase opens its
 * course (once: the payment's id is unique). The checkout row is marked either way.
 */
export async function applyCheckout(ctx: AppContext, provider: PaymentProvider, sessionId: string) {
  const checkout = await provider.getCheckout(sessionId);
  if (!checkout) return null;
  // Hearth's row of this checkout, written without reading it first (one statement each way).
  const ours = and(eq(checkoutSessions.provider, provider.name), eq(checkoutSessions.providerSessionId, sessionId));
  if (checkout.status === "expired") {
    await ctx.db
      .update(checkoutSessions)
      .set({ status: "expired", updatedAt: new Date() })
      .where(and(ours, eq(checkoutSessions.status, "open")));
    return null;
  }
  if (checkout.status !== "complete" || checkout.paymentStatus === "unpaid") return null;
  let row: EntitlementRow | null = null;
  if (checkout.subscriptionId) {
    row = await applySubscription(ctx, provider, checkout.subscriptionId);
  } else if (checkout.paymentId) {
    row = await ctx.db.transaction(async (tx) => {
      await lockObject(tx, `${provider.name}:${checkout.paymentId}`);
      const [existing] = await tx
        .select()
        .from(entitlements)
        .where(and(eq(entitlements.provider, provider.name), eq(entitlements.providerPaymentId, checkout.paymentId!)));
      if (existing) return existing;
      const [price] = checkout.metadata.price_id
        ? await tx.select().from(prices).where(eq(prices.id, checkout.metadata.price_id))
        : [];
      if (!price || !checkout.metadata.user_id || price.product !== "course") return null;
      const [inserted] = await tx
        .insert(entitlements)
        .values({
          userId: checkout.metadata.user_id,
          kind: "course",
          communityId: price.communityId,
          courseId: price.courseId,
          priceId: price.id,
          status: "active",
          provider: provider.name,
          providerCustomerId: checkout.customerId,
          providerPaymentId: checkout.paymentId,
          amount: checkout.amountTotal,
          currency: checkout.currency,
          interval: "once",
        })
        .returning();
      await recordPayment(tx, {
        entitlement: inserted,
        kind: "charge",
        status: "succeeded",
        amount: checkout.amountTotal,
        currency: checkout.currency,
        provider: provider.name,
        providerRef: checkout.paymentId!,
        receiptUrl: null,
        fee: 0,
        description: "Course purchase",
      });
      return inserted;
    });
  }
  // Unless the subscription's first sight marked it already (its metadata names the checkout).
  if (row)
    await ctx.db
      .update(checkoutSessions)
      .set({ status: "complete", entitlementId: row.id, updatedAt: new Date() })
      .where(
        and(
          ours,
          sql`(${checkoutSessions.status} <> 'complete' OR ${checkoutSessions.entitlementId} IS DISTINCT FROM ${row.id}::uuid)`,
        ),
      );
  return row;
}

type PaymentInput = {
  entitlement: EntitlementRow | null;
  kind: "charge" | "refund";
  status: "succeeded" | "failed";
  amount: number;
  currency: string;
  provider: PaymentProvider["name"];
  providerRef: string;
  receiptUrl: string | null;
  fee: number;
  description: string;
  userId?: string | null;
  communityId?: string | null;
};

/** Records money that moved, once per provider object, kind and outcome. */
export async function recordPayment(tx: Queryable, p: PaymentInput) {
  await recordPayments(tx, [p]);
}

/** recordPayment for many (a batch of events), in one statement. */
export async function recordPayments(tx: Queryable, list: PaymentInput[]) {
  if (list.length === 0) return;
  await tx
    .insert(payments)
    .values(
      list.map((p) => ({
        entitlementId: p.entitlement?.id ?? null,
        userId: p.entitlement?.userId ?? p.userId ?? null,
        communityId: p.entitlement?.communityId ?? p.communityId ?? null,
        kind: p.kind,
        status: p.status,
        amount: p.amount,
        currency: p.currency,
        fee: p.fee,
        provider: p.provider,
        providerRef: p.providerRef,
        receiptUrl: p.receiptUrl,
        description: p.description,
      })),
    )
    .onConflictDoNothing();
}

/** An invoice paid or failed: recorded as a payment, then its subscription is applied. */
export async function applyInvoice(ctx: AppContext, provider: PaymentProvider, invoiceId: string, failed: boolean) {
  const invoice: ProviderInvoice | null = await provider.getInvoice(invoiceId);
  if (!invoice?.subscriptionId) return null;
  const row = await applySubscription(ctx, provider, invoice.subscriptionId);
  await recordInvoice(ctx.db, provider, invoice, row, failed);
  return row;
}

/**
 * An invoice's payment, once: a paid one as succeeded; an unpaid one as failed when its event said
 * the payment failed (`failed`), else nothing yet.
 */
export async function recordInvoice(
  db: Queryable,
  provider: PaymentProvider,
  invoice: ProviderInvoice,
  row: EntitlementRow | null,
  failed: boolean,
) {
  const payment = invoicePayment(provider, invoice, row, failed);
  if (payment) await recordPayment(db, payment);
}

/** The payment recordInvoice records, or null when there is none yet. */
export function invoicePayment(
  provider: PaymentProvider,
  invoice: ProviderInvoice,
  row: EntitlementRow | null,
  failed: boolean,
): PaymentInput | null {
  const paid = invoice.status === "paid";
  if (!paid && !failed) return null;
  return {
    entitlement: row,
    kind: "charge",
    status: paid ? "succeeded" : "failed",
    amount: paid ? invoice.amountPaid : invoice.amountDue,
    currency: invoice.currency,
    provider: provider.name,
    providerRef: invoice.id,
    receiptUrl: invoice.receiptUrl,
    fee: invoice.fee,
    description: row?.kind === "creator_plan" ? "Creator plan" : "Membership",
  };
}

/** A refund that went through closes the one-time purchase it refunds, and is recorded. */
export async function applyRefund(ctx: AppContext, provider: PaymentProvider, refundId: string) {
  const refund = await provider.getRefund(refundId);
  if (!refund || refund.status !== "succeeded" || !refund.paymentId) return null;
  return ctx.db.transaction(async (tx) => {
    await lockObject(tx, `${provider.name}:${refund.paymentId}`);
    const [e] = await tx
      .select()
      .from(entitlements)
      .where(and(eq(entitlements.provider, provider.name), eq(entitlements.providerPaymentId, refund.paymentId!)));
    if (!e) return null;
    const [row] =
      e.status === "refunded"
        ? [e]
        : await tx
            .update(entitlements)
            .set({ status: "refunded", endedAt: new Date(), updatedAt: new Date() })
            .where(eq(entitlements.id, e.id))
            .returning();
    await recordPayment(tx, {
      entitlement: row,
      kind: "refund",
      status: "succeeded",
      amount: refund.amount,
      currency: refund.currency,
      provider: provider.name,
      providerRef: refund.id,
      receiptUrl: null,
      fee: 0,
      description: "Refund",
    });
    await syncMembership(tx, row, isOpen(e));
    return row;
  });
}

/**
 * Ends what lapsed by itself (a cancellation reaching its period's end, a grace period running
 * out): the status becomes expired and the membership goes. Runs at each lapse time and hourly.
 */
export async function expireLapsed(ctx: AppContext, entitlementId?: string): Promise<number> {
  const due = await ctx.db.execute<{ id: string }>(sql`
    SELECT id FROM entitlements
     WHERE ((status = 'canceled' AND current_period_end <= now()) OR (status = 'past_due' AND grace_ends_at <= now()))
       ${entitlementId ? sql`AND id = ${entitlementId}::uuid` : sql``}
     LIMIT 1000`);
  let count = 0;
  for (const { id } of due.rows) {
    await ctx.db.transaction(async (tx) => {
      const [e] = await tx.select().from(entitlements).where(eq(entitlements.id, id)).for("update");
      if (!e || isOpen(e) || e.status === "expired" || e.status === "refunded") return;
      const [row] = await tx
        .update(entitlements)
        .set({ status: "expired", endedAt: new Date(), graceEndsAt: null, updatedAt: new Date() })
        .where(eq(entitlements.id, id))
        .returning();
      // It was open until its lapse time: the membership it paid for goes now.
      await syncMembership(tx, row, true);
      count++;
    });
  }
  return count;
}
