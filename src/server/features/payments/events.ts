import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "#server/context";
import { sqlState, type Queryable } from "#server/db/client";
import { entitlements, paymentEvents, payoutAccounts } from "#server/db/schema/index";
import { hourly, type JobHandler } from "#server/lib/jobs";
import {
  applyCheckout,
  applyInvoice,
  applyRefund,
  applySubscription,
  expireLapsed,
  LAPSE_QUEUE,
  statusOf,
} from "./entitlements";
import { EVENT_GROUPS, markProcessed, processEventBatch } from "./event-batch";
import type { PaymentProvider, ProviderEvent } from "./provider";
import { isSimulated, paymentProvider } from "./provider-registry";

/*
 * Provider events: stored once by their id (a repeat changes nothing), then processed through the
 * job queue, which claims each job once across processes and retries with backoff. Processing never
 * trusts the event's copy of an object: it re-reads it from the provider (entitlements.ts).
 */

export const EVENT_QUEUE = "payments.event";
export const RECONCILE_QUEUE = "payments.reconcile";
export const RENEW_QUEUE = "payments.simulated-renewals";
/** Payment events one process applies together (Stripe mode; event-batch.ts), and batches at once. */
export const EVENT_BATCH = 32;
export const EVENT_BATCH_LANES = 2;

/** Deliveries one statement stores at most, and statements in flight at once, per process. */
const INTAKE_GROUP = 64;
const INTAKE_LANES = 1;

type Delivery = { event: ProviderEvent; done: (stored: boolean) => void; fail: (err: unknown) => void };
type Intake = { waiting: Delivery[]; lanes: number };
const intakes = new WeakMap<AppContext, Map<string, Intake>>();

/**
 * Stores an event (once) and queues its processing; the webhook answers once it is committed.
 * Deliveries that arrive while a store is in flight wait for it and are then stored together, in
 * one statement and one commit (a group commit): alone, a delivery goes at once. Returns whether
 * the event was new (in a group, the first of two with one id is).
 */
export function receiveEvent(ctx: AppContext, provider: PaymentProvider, event: ProviderEvent): Promise<boolean> {
  const byProvider = intakes.get(ctx) ?? new Map<string, Intake>();
  intakes.set(ctx, byProvider);
  const intake = byProvider.get(provider.name) ?? { waiting: [], lanes: 0 };
  byProvider.set(provider.name, intake);
  return new Promise((done, fail) => {
    intake.waiting.push({ event, done, fail });
    if (intake.lanes < INTAKE_LANES) {
      intake.lanes++;
      void storeWaiting(ctx, provider, intake).finally(() => intake.lanes--);
    }
  });
}

async function storeWaiting(ctx: AppContext, provider: PaymentProvider, intake: Intake) {
  while (intake.waiting.length > 0) {
    const group = intake.waiting.splice(0, INTAKE_GROUP);
    const answer = async (list: Delivery[]) => {
      const stored = await storeEvents(
        ctx.db,
        provider.name,
        list.map((d) => d.event),
      );
      if (stored.size > 0) ctx.worker.kick();
      for (const d of list) d.done(stored.delete(d.event.id));
    };
    try {
      await answer(group);
    } catch (err) {
      // One event the database refuses (a data exception, SQLSTATE class 22) fails alone: the
      // others are stored one by one. Anything else (the database unreachable) fails the group at
      // once, for Stripe to retry, rather than each delivery waiting for its own failure.
      if (group.length === 1 || !sqlState(err)?.startsWith("22")) for (const d of group) d.fail(err);
      else
        for (const d of group)
          await answer([d]).catch((e: unknown) => {
            d.fail(e);
          });
    }
  }
}

/** Stores several events in order (the simulated provider reports what one action did). */
export async function receiveEvents(ctx: AppContext, provider: PaymentProvider, events: ProviderEvent[]) {
  if ((await storeEvents(ctx.db, provider.name, events)).size > 0) ctx.worker.kick();
}

/**
 * Stores events, each once (by id: one stored before, or twice in the list, is stored once), and
 * queues the processing of each new one, in their order, in one statement. Returns the new ids.
 */
export async function storeEvents(
  db: Queryable,
  provider: PaymentProvider["name"],
  events: ProviderEvent[],
): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const rows = events.map((e, n) => ({
    n,
    id: e.id,
    type: e.type,
    livemode: e.livemode,
    object_id: e.objectId,
    payload: e.payload,
    group_key: e.groupRef ? `payment:${provider}:${e.groupRef}` : null,
  }));
  const res = await db.execute<{ id: string }>(sql`
    WITH v AS (
      SELECT DISTINCT ON (v.id) v.*
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
             AS v(n int, id text, type text, livemode boolean, object_id text, payload jsonb, group_key text)
       ORDER BY v.id, v.n),
    e AS (
      INSERT INTO payment_events (id, provider, type, livemode, object_id, payload)
      SELECT v.id, ${provider}, v.type, v.livemode, v.object_id, v.payload FROM v
      ON CONFLICT DO NOTHING
      RETURNING id),
    j AS (
      INSERT INTO jobs (queue, payload, max_attempts, singleton_key, group_key)
      SELECT ${EVENT_QUEUE}, jsonb_build_object('id', e.id), 12, 'payment-event:' || e.id, v.group_key
        FROM e JOIN v ON v.id = e.id
       ORDER BY v.n
      ON CONFLICT (singleton_key) WHERE singleton_key IS NOT NULL AND done_at IS NULL AND dead_at IS NULL DO NOTHING
      RETURNING id)
    SELECT e.id FROM e`);
  return new Set(res.rows.map((r) => r.id));
}

/** What an event type changes, from the object it names (re-read from the provider). */
export async function processEvent(ctx: AppContext, provider: PaymentProvider, type: string, objectId: string) {
  switch (type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
    case "checkout.session.expired":
      return applyCheckout(ctx, provider, objectId);
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
    case "customer.subscription.paused":
    case "customer.subscription.resumed":
      return applySubscription(ctx, provider, objectId);
    case "invoice.paid":
    case "invoice.payment_succeeded":
      return applyInvoice(ctx, provider, objectId, false);
    case "invoice.payment_failed":
      return applyInvoice(ctx, provider, objectId, true);
    case "refund.created":
    case "refund.updated":
      return applyRefund(ctx, provider, objectId);
    case "account.updated":
      return refreshAccount(ctx, provider, objectId);
    default:
      return null;
  }
}

/** Stripe Connect: the payout account's status as the provider says now. */
export async function refreshAccount(ctx: AppContext, provider: PaymentProvider, accountId: string) {
  const account = await provider.getAccount(accountId);
  if (!account) return null;
  await ctx.db
    .update(payoutAccounts)
    .set({
      chargesEnabled: account.chargesEnabled,
      payoutsEnabled: account.payoutsEnabled,
      detailsSubmitted: account.detailsSubmitted,
      updatedAt: new Date(),
    })
    .where(and(eq(payoutAccounts.provider, provider.name), eq(payoutAccounts.providerAccountId, accountId)));
  return null;
}

/**
 * Reconciliation: every subscription the provider holds is applied again (repairing any missed
 * webhook), and every open entitlement the provider no longer knows is re-read and closed. Each
 * repair is logged.
 */
export async function reconcile(ctx: AppContext, provider: PaymentProvider) {
  let checked = 0;
  let repaired = 0;
  const seen = new Set<string>();
  for await (const sub of provider.listSubscriptions()) {
    checked++;
    seen.add(sub.id);
    const [before] = await ctx.db
      .select({ status: entitlements.status, priceId: entitlements.priceId, end: entitlements.currentPeriodEnd })
      .from(entitlements)
      .where(and(eq(entitlements.provider, provider.name), eq(entitlements.providerSubscriptionId, sub.id)));
    const expected = statusOf(sub);
    if (before && before.status === expected && before.end?.getTime() === sub.currentPeriodEnd.getTime()) continue;
    if (!before && expected === null) continue;
    const after = await applySubscription(ctx, provider, sub.id);
    if (after && (before?.status !== after.status || before?.end?.getTime() !== after.currentPeriodEnd?.getTime())) {
      repaired++;
      ctx.log.warn(
        { subscription: sub.id, from: before?.status ?? null, to: after.status },
        "payments: reconciliation repaired an entitlement",
      );
    }
  }
  const open = await ctx.db.execute<{ sub: string }>(sql`
    SELECT provider_subscription_id AS sub FROM entitlements
     WHERE provider = ${provider.name} AND provider_subscription_id IS NOT NULL
       AND status IN ('trialing', 'active', 'past_due', 'canceled')`);
  for (const { sub } of open.rows) {
    if (seen.has(sub)) continue;
    checked++;
    const after = await applySubscription(ctx, provider, sub);
    if (after) {
      repaired++;
      ctx.log.warn({ subscription: sub, to: after.status }, "payments: reconciliation re-read an entitlement");
    }
  }
  return { checked, repaired };
}

/**
 * Processes one stored event (the queue's job; also called at once for a simulated one-step
 * purchase): a processed one is skipped, a failure is recorded on the event and thrown for a retry.
 */
export async function processStoredEvent(ctx: AppContext, provider: PaymentProvider, id: string) {
  // Not the payload: processing re-reads the object from the provider. `readFrom` is the database's
  // clock before that read: every event stored before it is reflected in what the read returns.
  const [event] = await ctx.db
    .select({
      processedAt: paymentEvents.processedAt,
      objectId: paymentEvents.objectId,
      provider: paymentEvents.provider,
      type: paymentEvents.type,
      readFrom: sql<string>`now()::text`,
    })
    .from(paymentEvents)
    .where(eq(paymentEvents.id, id));
  if (!event || event.processedAt || !event.objectId || event.provider !== provider.name) return;
  let result: Awaited<ReturnType<typeof processEvent>>;
  try {
    result = await processEvent(ctx, provider, event.type, event.objectId);
  } catch (err) {
    await ctx.db
      .update(paymentEvents)
      .set({ error: String((err as Error).message ?? err) })
      .where(eq(paymentEvents.id, id));
    throw err;
  }
  // Done, with the events still waiting on what was re-read (received before the read): the same
  // group about the same object, and the subscription a checkout or an invoice applied. Their jobs
  // then find them processed. One statement either way.
  const covered: [string, string][] = [];
  const group = EVENT_GROUPS[event.type]?.group;
  if (group) covered.push([group, event.objectId]);
  const subscriptionId = result && "providerSubscriptionId" in result ? result.providerSubscriptionId : null;
  if (subscriptionId && (group === "checkout" || group === "invoice" || group === "invoice_failed"))
    covered.push(["subscription", subscriptionId]);
  await markProcessed(ctx.db, provider, [id], event.readFrom, covered);
}

/** The job handlers and schedules of payments, registered by app.ts. */
export function paymentJobHandlers(ctx: AppContext): Record<string, JobHandler> {
  // Stripe events are applied in batches: each object re-read once, one transaction for the batch
  // (event-batch.ts). The simulated provider reads its objects through the pool while holding the
  // lock, so its events stay one after another.
  if (ctx.config.payments.provider === "stripe")
    ctx.worker.setBatch(
      EVENT_QUEUE,
      EVENT_BATCH,
      async (jobs) => {
        const provider = await paymentProvider(ctx);
        const jobOf = new Map(jobs.map((j) => [String(j.payload.id), j.id]));
        const failed = await processEventBatch(ctx, provider, [...jobOf.keys()], (id) =>
          processStoredEvent(ctx, provider, id),
        );
        return new Map([...failed].map(([eventId, err]) => [jobOf.get(eventId)!, err]));
      },
      EVENT_BATCH_LANES,
    );
  ctx.worker.addSchedule({ name: "payments-reconcile", queue: RECONCILE_QUEUE, ...hourly(17) });
  ctx.worker.addSchedule({ name: "payments-lapse-sweep", queue: LAPSE_QUEUE, everyMs: 10 * 60_000 });
  if (ctx.config.payments.provider === "simulated")
    ctx.worker.addSchedule({ name: "payments-simulated-renewals", queue: RENEW_QUEUE, everyMs: 10 * 60_000 });
  return {
    [EVENT_QUEUE]: async (payload) => processStoredEvent(ctx, await paymentProvider(ctx), String(payload.id)),
    [LAPSE_QUEUE]: async (payload) => {
      await expireLapsed(ctx, typeof payload.entitlementId === "string" ? payload.entitlementId : undefined);
    },
    [RECONCILE_QUEUE]: async () => {
      const result = await reconcile(ctx, await paymentProvider(ctx));
      ctx.log.info(result, "payments: reconciliation done");
    },
    [RENEW_QUEUE]: async () => {
      const provider = await paymentProvider(ctx);
      if (isSimulated(provider)) await receiveEvents(ctx, provider, await provider.renewDue());
    },
  };
}
