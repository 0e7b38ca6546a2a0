import { sql } from "drizzle-orm";
import type { AppContext } from "#server/context";
import type { Queryable } from "#server/db/client";
import { announceMembers } from "#server/lib/community-access";
import {
  invoicePayment,
  joins,
  readSubscriptions,
  recordPayments,
  syncMembership,
  writeSubscriptions,
  type WrittenSubscription,
} from "./entitlements";
import type { PaymentProvider, ProviderCheckout, ProviderInvoice, ProviderSubscription } from "./provider";

/*
 * Payment events applied in batches (issue 18's 500 events/s): the queue hands over the claimed
 * events together, and what they share is done once. One statement reads them; each object they
 * name is re-read from the provider once (a checkout, an invoice, then every subscription they
 * lead to, inside the subscriptions' locks); one transaction writes every entitlement, membership,
 * payment and checkout row, and marks the events processed (with the waiting ones the re-reads
 * covered). The effects are those of applying the events one by one (processStoredEvent), which
 * stays the way for everything else: a batch that fails is applied again event by event, so one
 * bad event fails alone.
 */

/** Which work an event type is, and whether a batch applies it (the rest go one by one). */
export const EVENT_GROUPS: Record<string, { group: string; batched: boolean }> = {
  "checkout.session.completed": { group: "checkout", batched: true },
  "checkout.session.async_payment_succeeded": { group: "checkout", batched: true },
  "checkout.session.expired": { group: "checkout", batched: false },
  "customer.subscription.created": { group: "subscription", batched: true },
  "customer.subscription.updated": { group: "subscription", batched: true },
  "customer.subscription.deleted": { group: "subscription", batched: true },
  "customer.subscription.paused": { group: "subscription", batched: true },
  "customer.subscription.resumed": { group: "subscription", batched: true },
  "invoice.paid": { group: "invoice", batched: true },
  "invoice.payment_succeeded": { group: "invoice", batched: true },
  "invoice.payment_failed": { group: "invoice_failed", batched: true },
  "refund.created": { group: "refund", batched: false },
  "refund.updated": { group: "refund", batched: false },
  "account.updated": { group: "account", batched: false },
};

/** The event types of a group: two waiting events of one group about one object are the same work. */
export const typesOf = (group: string) => Object.keys(EVENT_GROUPS).filter((t) => EVENT_GROUPS[t].group === group);

/** Provider reads a batch makes at once (HTTP requests to Stripe). */
const READS_AT_ONCE = 8;

async function eachAtOnce<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]);
    }),
  );
  return out;
}

/**
 * Marks events processed: these (by id), and those still waiting that were received before
 * `readFrom` and are the same work as one of `covered` (a group and an object re-read after them).
 */
export async function markProcessed(
  db: Queryable,
  provider: PaymentProvider,
  ids: string[],
  readFrom: string,
  covered: [group: string, objectId: string][],
) {
  const objects: string[] = [];
  const types: string[] = [];
  for (const [group, objectId] of covered)
    for (const type of typesOf(group)) {
      objects.push(objectId);
      types.push(type);
    }
  // object_id = ANY(…): the waiting events of those objects through their index (1.1 ms where
  // reading every waiting event took 7.5 ms with 2,500 waiting).
  await db.execute(sql`
    UPDATE payment_events SET processed_at = now(), error = NULL
     WHERE id = ANY(${sql.param(ids)}::text[])
        OR (processed_at IS NULL AND provider = ${provider.name} AND received_at <= ${readFrom}::timestamptz
            AND object_id = ANY(${sql.param([...new Set(objects)])}::text[])
            AND (object_id, type) IN (SELECT * FROM unnest(${sql.param(objects)}::text[], ${sql.param(types)}::text[])))`);
}

type Work = { group: string; objectId: string; eventIds: string[] };

/**
 * Applies a batch of stored events. Returns the ones that failed (by event id, with the error, also
 * kept on the event) for the queue to retry; `one` applies an event alone (processStoredEvent).
 */
export async function processEventBatch(
  ctx: AppContext,
  provider: PaymentProvider,
  ids: string[],
  one: (id: string) => Promise<void>,
): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const alone: string[] = [];
  const rows = (
    await ctx.db.execute<{ id: string; type: string; object_id: string | null; read_from: string }>(sql`
      SELECT id, type, object_id, now()::text AS read_from FROM payment_events
       WHERE id = ANY(${sql.param(ids)}::text[]) AND processed_at IS NULL AND provider = ${provider.name}`)
  ).rows;
  const readFrom = rows[0]?.read_from;
  // The work: one per group and object, with the events it applies.
  const works = new Map<string, Work>();
  for (const row of rows) {
    const kind = EVENT_GROUPS[row.type];
    if (!row.object_id || !kind) {
      alone.push(row.id); // nothing to apply: marked processed by the one-by-one way
      continue;
    }
    if (!kind.batched) {
      alone.push(row.id);
      continue;
    }
    const key = `${kind.group}:${row.object_id}`;
    const work = works.get(key) ?? { group: kind.group, objectId: row.object_id, eventIds: [] };
    work.eventIds.push(row.id);
    works.set(key, work);
  }
  if (works.size > 0 && readFrom) {
    try {
      alone.push(...(await applyTogether(ctx, provider, [...works.values()], readFrom)));
    } catch (err) {
      ctx.log.warn({ err, events: works.size }, "payments: a batch of events failed; applying them one by one");
      for (const work of works.values()) alone.push(...work.eventIds);
    }
  }
  for (const id of alone) {
    try {
      await one(id);
    } catch (err) {
      failures.set(id, err);
    }
  }
  return failures;
}

/** The batch's one transaction. Returns the events it left to the one-by-one way. */
async function applyTogether(ctx: AppContext, provider: PaymentProvider, works: Work[], readFrom: string) {
  const left: string[] = [];
  // The checkouts and invoices, read first (as one event alone reads them: outside any lock).
  const read = await eachAtOnce(works, READS_AT_ONCE, async (w) =>
    w.group === "checkout"
      ? { checkout: await provider.getCheckout(w.objectId) }
      : w.group === "invoice" || w.group === "invoice_failed"
        ? { invoice: await provider.getInvoice(w.objectId) }
        : {},
  );
  const subscriptionIds = new Set<string>();
  const checkouts: { work: Work; checkout: ProviderCheckout }[] = [];
  const invoices: { work: Work; invoice: ProviderInvoice }[] = [];
  const applied: Work[] = [];
  works.forEach((w, i) => {
    const { checkout, invoice } = read[i] as { checkout?: ProviderCheckout | null; invoice?: ProviderInvoice | null };
    if (w.group === "subscription") subscriptionIds.add(w.objectId);
    else if (w.group === "checkout" && checkout) {
      // Only a paid subscription checkout is the batch's; the rest (a one-time purchase, one not
      // complete or expired since) are applied alone.
      const paid = checkout.status === "complete" && checkout.paymentStatus !== "unpaid";
      if (!paid || !checkout.subscriptionId) {
        left.push(...w.eventIds);
        return;
      }
      subscriptionIds.add(checkout.subscriptionId);
      checkouts.push({ work: w, checkout });
    } else if (invoice?.subscriptionId) {
      subscriptionIds.add(invoice.subscriptionId);
      invoices.push({ work: w, invoice });
    }
    // A checkout or invoice the provider does not know, or an invoice of no subscription: nothing to apply.
    applied.push(w);
  });
  await ctx.db.transaction(async (tx) => {
    // Every subscription's lock, in one order (two batches never wait for each other in a circle),
    // then each re-read, then written.
    const subIds = [...subscriptionIds].sort();
    await tx.execute(sql`
      SELECT pg_advisory_xact_lock(hashtext(k))
        FROM (SELECT 'hearth:pay:' || ${provider.name} || ':' || s AS k
                FROM unnest(${sql.param(subIds)}::text[]) AS s ORDER BY s) keys`);
    const subs = await eachAtOnce(subIds, READS_AT_ONCE, (id) => provider.getSubscription(id));
    const known = subs.filter((s): s is ProviderSubscription => !!s);
    // Their entitlements and prices in two statements, not two each.
    const pre = await readSubscriptions(tx, provider, known);
    const written = await writeSubscriptions(ctx, tx, provider, known, pre);
    // Memberships: the new members checked and announced together now, their rows inserted last,
    // just before the commit (adding a member locks the community's row, its member count, until
    // the commit); the rest (a membership that closes) one by one.
    const joining: WrittenSubscription[] = [];
    for (const w of written.values())
      if (joins(w.row, w.wasOpen)) joining.push(w);
      else await syncMembership(tx, w.row, w.wasOpen);
    const insertMembers = await announceMembers(
      tx,
      joining.map((w) => ({ community: { id: w.row.communityId! }, userId: w.row.userId })),
    );
    await recordPayments(
      tx,
      invoices.flatMap(
        ({ work, invoice }) =>
          invoicePayment(
            provider,
            invoice,
            written.get(invoice.subscriptionId!)?.row ?? null,
            work.group === "invoice_failed",
          ) ?? [],
      ),
    );
    const done = checkouts
      .map(({ checkout }) => ({ session: checkout.id, entitlement: written.get(checkout.subscriptionId!)?.row.id }))
      .filter((c): c is { session: string; entitlement: string } => !!c.entitlement);
    if (done.length > 0)
      await tx.execute(sql`
        UPDATE checkout_sessions c SET status = 'complete', entitlement_id = v.e::uuid, updated_at = now()
          FROM unnest(${sql.param(done.map((c) => c.session))}::text[], ${sql.param(done.map((c) => c.entitlement))}::text[]) AS v(s, e)
         WHERE c.provider = ${provider.name} AND c.provider_session_id = v.s
           AND (c.status <> 'complete' OR c.entitlement_id IS DISTINCT FROM v.e::uuid)`);
    // Processed: the batch's events, and the waiting ones of the same work or of a subscription
    // that was re-read here.
    await markProcessed(
      tx,
      provider,
      applied.flatMap((w) => w.eventIds),
      readFrom,
      [
        ...applied.map((w): [string, string] => [w.group, w.objectId]),
        ...subIds.map((s): [string, string] => ["subscription", s]),
      ],
    );
    await insertMembers?.();
  });
  return left;
}
