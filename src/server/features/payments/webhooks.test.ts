import { describe, expect, it, vi } from "vitest";
import { buildApp } from "#server/app";
import { connectDatabase } from "#server/db/client";
import type { FakeSubscription } from "#server/test/fake-stripe-objects";
import { signedInUser } from "#server/test/harness";
import type Stripe from "stripe";
import { processEvent, processStoredEvent, storeEvents } from "./events";
import { paymentProvider } from "./provider-registry";
import { stripeEvent } from "./stripe-provider";
import {
  checkoutStatus,
  deliver,
  drain,
  entitlementsOf,
  eventsSince,
  paidCommunity,
  paymentsOf,
  payTier,
  postWebhook,
  roleOf,
  subscribe,
  useStripeApp,
} from "./webhooks.test-helpers";

// The Stripe webhook through the HTTP app on PostgreSQL, against the fake Stripe server (issue 18,
// "Webhooks done right"): signatures, events twice, out of order and in two processes at once.

const w = useStripeApp();
const count = async (sql: string, params: unknown[] = []) =>
  Number((await w.t.database.pool.query(sql, params)).rows[0].n);

describe("stripe webhook: access starts with the provider's confirmation", () => {
  it("not on the success URL: only once the signed events are processed", async () => {
    const owner = await signedInUser(w.t);
    const member = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const paid = await payTier(w, member, c);
    expect(paid.events.map((e) => e.type)).toEqual([
      "checkout.session.completed",
      "customer.subscription.created",
      "invoice.paid",
      "invoice.payment_succeeded",
    ]);
    // The browser is back on the success URL; Stripe has not called yet.
    expect(await checkoutStatus(w, member, paid.checkoutId)).toBe("open");
    expect(await roleOf(w, c, member)).toBeNull();
    for (const e of paid.events) expect(await deliver(w, e)).toEqual({ received: true, duplicate: false });
    // Stored and queued, not yet processed.
    expect(await roleOf(w, c, member)).toBeNull();
    await drain(w.t.app);
    expect(await roleOf(w, c, member)).toBe("member");
    expect(await checkoutStatus(w, member, paid.checkoutId)).toBe("complete");
    expect(await entitlementsOf(w, member)).toMatchObject([
      { status: "active", amount: 1500, currency: "eur", provider_subscription_id: paid.subId },
    ]);
    expect(await paymentsOf(w, member)).toMatchObject([{ kind: "charge", status: "succeeded", amount: 1500 }]);
    const processed = await count(
      `SELECT count(*) AS n FROM payment_events WHERE id = ANY($1) AND processed_at IS NOT NULL`,
      [paid.events.map((e) => e.id)],
    );
    expect(processed).toBe(4);
  });
});

describe("stripe webhook: what is refused", () => {
  it("a bad or missing signature, a tampered body, another secret, another mode: 400, nothing stored, no job", async () => {
    const owner = await signedInUser(w.t);
    const member = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const paid = await payTier(w, member, c);
    const event = paid.events[0];
    const { body, signature } = w.fake.signed(event);
    const tampered = body.replace(`"id": "${event.id}"`, `"id": "${event.id}x"`);
    expect(tampered).not.toBe(body);
    const live = w.fake.signed({ ...event, livemode: true } as unknown as typeof event);
    const jobsBefore = await count(`SELECT count(*) AS n FROM jobs WHERE queue = 'payments.event'`);
    const cases: Array<[string, string, string | undefined]> = [
      ["bad signature", body, `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`],
      ["tampered body", tampered, signature],
      ["missing header", body, undefined],
      ["another secret", body, w.fake.signed(event, "whsec_someone_else").signature],
      ["garbage header", body, "nonsense"],
      ["live mode event", live.body, live.signature],
    ];
    for (const [name, b, sig] of cases) {
      const res = await postWebhook(w.t.app, b, sig);
      expect(res.status, name).toBe(400);
      expect(res.body.error.message, name).toBeTruthy();
    }
    expect(await count(`SELECT count(*) AS n FROM payment_events WHERE id LIKE $1`, [`${event.id}%`])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM jobs WHERE queue = 'payments.event'`)).toBe(jobsBefore);
    // The same event, properly signed, is taken.
    expect((await postWebhook(w.t.app, body, signature)).status).toBe(200);
    expect(await count(`SELECT count(*) AS n FROM payment_events WHERE id = $1`, [event.id])).toBe(1);
  });
});

describe("stripe webhook: the same event twice", () => {
  it("is stored once: one entitlement, one payment, and the second answer says duplicate", async () => {
    const owner = await signedInUser(w.t);
    const member = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const paid = await payTier(w, member, c);
    for (const e of paid.events) expect((await deliver(w, e)).duplicate).toBe(false);
    for (const e of paid.events) expect((await deliver(w, e)).duplicate).toBe(true);
    await drain(w.t.app);
    // Stripe retries after Hearth processed it: still nothing new.
    for (const e of paid.events) expect((await deliver(w, e)).duplicate).toBe(true);
    await drain(w.t.app);
    expect(await entitlementsOf(w, member)).toHaveLength(1);
    expect(await paymentsOf(w, member)).toHaveLength(1);
    expect(
      await count(`SELECT count(*) AS n FROM payment_events WHERE id = ANY($1)`, [paid.events.map((e) => e.id)]),
    ).toBe(4);
    expect(await count(`SELECT count(*) AS n FROM community_members WHERE user_id = $1`, [member.id])).toBe(1);
  });

  it("stored together (storeEvents): each once, whether repeated in the list or stored before; jobs in the list's order", async () => {
    const owner = await signedInUser(w.t);
    const member = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const [a, b, d, e] = (await payTier(w, member, c)).events.map((x) => stripeEvent(x as unknown as Stripe.Event));
    expect([...(await storeEvents(w.t.app.ctx.db, "stripe", [b]))]).toEqual([b.id]);
    const stored = await storeEvents(w.t.app.ctx.db, "stripe", [e, a, b, e, d]);
    expect([...stored].sort()).toEqual([a.id, d.id, e.id].sort());
    const jobs = (
      await w.t.database.pool.query<{ id: string; group_key: string }>(
        `SELECT payload->>'id' AS id, group_key FROM jobs WHERE queue = 'payments.event' AND payload->>'id' = ANY($1) ORDER BY jobs.id`,
        [[a.id, b.id, d.id, e.id]],
      )
    ).rows;
    expect(jobs.map((j) => j.id)).toEqual([b.id, e.id, a.id, d.id]);
    expect(new Set(jobs.map((j) => j.group_key)).size).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM payment_events WHERE id = ANY($1)`, [[a.id, b.id, d.id, e.id]])).toBe(
      4,
    );
    await drain(w.t.app);
    expect(await roleOf(w, c, member)).toBe("member");
    expect(await paymentsOf(w, member)).toHaveLength(1);
  });
});

describe("stripe webhook: deliveries at once are stored together", () => {
  it("each answered once committed; a repeat among them is the duplicate; one the database refuses fails alone", async () => {
    const owner = await signedInUser(w.t);
    const member = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const paid = await payTier(w, member, c);
    // NUL in a string: a signed event PostgreSQL's jsonb refuses.
    const poison = { ...paid.events[0], id: `evt_poison_${Date.now()}`, data: { object: { id: "cs_\u0000" } } };
    const bodies = [...paid.events, paid.events[2], poison].map((e) => w.fake.signed(e as (typeof paid.events)[0]));
    const answers = await Promise.all(bodies.map((b) => postWebhook(w.t.app, b.body, b.signature)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 500]);
    const repeated = [answers[2], answers[4]].map((a) => (a.body as { duplicate: boolean }).duplicate).sort();
    expect(repeated).toEqual([false, true]);
    expect(
      answers
        .slice(0, 4)
        .filter((_a, i) => i !== 2)
        .every((a) => a.body.duplicate === false),
    ).toBe(true);
    expect(
      await count(`SELECT count(*) AS n FROM payment_events WHERE id = ANY($1)`, [
        [...paid.events.map((e) => e.id), poison.id],
      ]),
    ).toBe(4);
    await drain(w.t.app);
    expect(await roleOf(w, c, member)).toBe("member");
  });
});

describe("stripe webhook: events waiting on one object are applied together", () => {
  it("one re-read applies the waiting events it reflects; an event stored after the read waits for its own turn", async () => {
    const owner = await signedInUser(w.t);
    const member = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const paid = await payTier(w, member, c);
    for (const e of paid.events) await deliver(w, e);
    const [checkout, created, invoicePaid, invoiceSucceeded] = paid.events.map((e) => e.id);
    const processed = async () =>
      (
        await w.t.database.pool.query<{ id: string }>(
          `SELECT id FROM payment_events WHERE id = ANY($1) AND processed_at IS NOT NULL ORDER BY id`,
          [paid.events.map((e) => e.id)],
        )
      ).rows.map((r) => r.id);
    const provider = await paymentProvider(w.t.app.ctx);

    // The checkout applies its subscription: the waiting subscription.created is done with it.
    await processStoredEvent(w.t.app.ctx, provider, checkout);
    expect(await processed()).toEqual([checkout, created].sort());
    expect(await roleOf(w, c, member)).toBe("member");
    expect(await paymentsOf(w, member)).toEqual([]);

    // invoice.payment_succeeded names the invoice invoice.paid names, but reached Hearth "after"
    // the read: it is not covered and stays for its own job.
    await w.t.database.pool.query(`UPDATE payment_events SET received_at = now() + interval '1 hour' WHERE id = $1`, [
      invoiceSucceeded,
    ]);
    await processStoredEvent(w.t.app.ctx, provider, invoicePaid);
    expect(await processed()).toEqual([checkout, created, invoicePaid].sort());
    expect(await paymentsOf(w, member)).toMatchObject([{ kind: "charge", status: "succeeded", amount: 1500 }]);

    // Once received before a read of that invoice, it is covered by it.
    await w.t.database.pool.query(`UPDATE payment_events SET received_at = now() - interval '1 hour' WHERE id = $1`, [
      invoiceSucceeded,
    ]);
    await w.t.database.pool.query(`UPDATE payment_events SET processed_at = NULL WHERE id = $1`, [invoicePaid]);
    await processStoredEvent(w.t.app.ctx, provider, invoicePaid);
    expect(await processed()).toEqual([checkout, created, invoicePaid, invoiceSucceeded].sort());

    // Their jobs find them processed and change nothing.
    await drain(w.t.app);
    expect(await entitlementsOf(w, member)).toMatchObject([{ status: "active", amount: 1500 }]);
    expect(await paymentsOf(w, member)).toHaveLength(1);
    expect(await count(`SELECT count(*) AS n FROM community_members WHERE user_id = $1`, [member.id])).toBe(1);
  });
});

describe("stripe webhook: events out of order end in Stripe's current state", () => {
  it("subscription.deleted before checkout.session.completed: no access", async () => {
    const owner = await signedInUser(w.t);
    const member = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const paid = await payTier(w, member, c);
    const from = w.fake.events.length;
    await w.fake.cancelNow(paid.subId);
    const [deleted] = eventsSince(w, from, "customer.subscription.deleted");
    await deliver(w, deleted);
    await drain(w.t.app);
    for (const e of paid.events) await deliver(w, e);
    await drain(w.t.app);
    expect(await roleOf(w, c, member)).toBeNull();
    expect(await entitlementsOf(w, member)).toMatchObject([{ status: "expired" }]);
    // The money did move: the payment is recorded.
    expect(await paymentsOf(w, member)).toMatchObject([{ kind: "charge", status: "succeeded" }]);
  });

  it("updated events in reverse: the last state at Stripe wins", async () => {
    const owner = await signedInUser(w.t);
    const member = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const paid = await subscribe(w, member, c);
    const from = w.fake.events.length;
    await w.fake.cancelAtPeriodEnd(paid.subId);
    await w.provider.setCancelAtPeriodEnd(paid.subId, false);
    await w.fake.cancelAtPeriodEnd(paid.subId);
    const updates = eventsSince(w, from, "customer.subscription.updated");
    expect(updates).toHaveLength(3);
    for (const e of [...updates].reverse()) await deliver(w, e);
    await drain(w.t.app);
    expect(await entitlementsOf(w, member)).toMatchObject([{ status: "canceled", cancel_at_period_end: true }]);
    expect(await roleOf(w, c, member)).toBe("member");

    // Resumed at Stripe: its event alone brings the entitlement back to active.
    const again = w.fake.events.length;
    await w.provider.setCancelAtPeriodEnd(paid.subId, false);
    const [resumed] = eventsSince(w, again, "customer.subscription.updated");
    await deliver(w, resumed);
    await drain(w.t.app);
    expect(await entitlementsOf(w, member)).toMatchObject([{ status: "active", cancel_at_period_end: false }]);
  });
});

describe("stripe webhook: two processes on one event", () => {
  it("both receive the same events and run their workers at once: one entitlement, one payment", async () => {
    // A second process: its own app and pool on the same database.
    const database = connectDatabase(w.t.database.url, { max: 5 });
    const other = await buildApp({ config: w.t.config, database, logger: false, startWorker: false });
    await other.ready();
    try {
      const otherProvider = await paymentProvider(other.ctx);
      for (let round = 0; round < 3; round++) {
        const owner = await signedInUser(w.t);
        const member = await signedInUser(w.t);
        const c = await paidCommunity(w, owner);
        const paid = await payTier(w, member, c);
        // Both get every event at once (Stripe retrying on a timeout, behind a load balancer).
        const answers = await Promise.all(paid.events.flatMap((e) => [deliver(w, e, w.t.app), deliver(w, e, other)]));
        expect(answers.filter((a) => !a.duplicate)).toHaveLength(paid.events.length);
        await Promise.all([drain(w.t.app), drain(other)]);
        // And each process handles every event itself, all at once (a retried job racing its first run).
        await Promise.all(
          paid.events.flatMap((e) => {
            const objectId = (e.data.object as { id: string }).id;
            return [
              processEvent(w.t.app.ctx, w.provider, e.type, objectId),
              processEvent(other.ctx, otherProvider, e.type, objectId),
            ];
          }),
        );
        expect(await entitlementsOf(w, member)).toMatchObject([{ status: "active" }]);
        expect(await paymentsOf(w, member)).toHaveLength(1);
        expect(await roleOf(w, c, member)).toBe("member");
        expect(await count(`SELECT count(*) AS n FROM community_members WHERE user_id = $1`, [member.id])).toBe(1);
        expect(await checkoutStatus(w, member, paid.checkoutId)).toBe("complete");
      }
    } finally {
      await other.close();
      await database.close();
    }
  });
});

describe("stripe webhook: events applied in batches", () => {
  it("a member's four events in one batch: each object read once, everything applied once", async () => {
    const owner = await signedInUser(w.t);
    const member = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const paid = await payTier(w, member, c);
    for (const e of paid.events) await deliver(w, e);
    const reads = vi.spyOn(w.provider, "getSubscription");
    try {
      await drain(w.t.app);
      // One event at a time would read the subscription for the checkout and again for the invoice.
      expect(reads.mock.calls.map(([id]) => id)).toEqual([paid.subId]);
    } finally {
      reads.mockRestore();
    }
    expect(await roleOf(w, c, member)).toBe("member");
    expect(await checkoutStatus(w, member, paid.checkoutId)).toBe("complete");
    expect(await entitlementsOf(w, member)).toMatchObject([{ status: "active", provider_subscription_id: paid.subId }]);
    expect(await paymentsOf(w, member)).toMatchObject([{ kind: "charge", status: "succeeded" }]);
  });

  it("three members' purchases in one batch: all three join in one insert, the member count stays exact; a banned buyer is passed over", async () => {
    const owner = await signedInUser(w.t);
    const c = await paidCommunity(w, owner);
    const buyers = [await signedInUser(w.t), await signedInUser(w.t), await signedInUser(w.t)];
    const banned = await signedInUser(w.t);
    const paid = [];
    for (const u of [...buyers, banned]) paid.push(await payTier(w, u, c));
    await w.t.database.pool.query(`INSERT INTO community_bans (community_id, user_id, banned_by) VALUES ($1, $2, $3)`, [
      c.id,
      banned.id,
      owner.id,
    ]);
    for (const p of paid) for (const e of p.events) await deliver(w, e);
    await drain(w.t.app);
    for (const u of buyers) expect(await roleOf(w, c, u)).toBe("member");
    expect(await roleOf(w, c, banned)).toBeNull();
    const counts = (
      await w.t.database.pool.query(
        `SELECT member_count, (SELECT count(*)::int FROM community_members m WHERE m.community_id = c.id) AS rows
           FROM communities c WHERE c.id = $1`,
        [c.id],
      )
    ).rows[0];
    expect(counts).toEqual({ member_count: 4, rows: 4 });
    // The owners hear of each new member once (one statement for the batch), each by name.
    const told = (
      await w.t.database.pool.query<{ actor_id: string; title: string; name: string }>(
        `SELECT n.actor_id, n.title, coalesce(nullif(btrim(p.full_name), ''), p.username) AS name
           FROM notifications n JOIN user_profiles p ON p.user_id = n.actor_id
          WHERE n.user_id = $1 AND n.type = 'community_join'`,
        [owner.id],
      )
    ).rows;
    expect(told.map((n) => n.actor_id).sort()).toEqual(buyers.map((u) => u.id).sort());
    for (const n of told) expect(n.title).toBe(`${n.name} joined your community`);
  });

  it("an object the provider cannot read fails its own events alone; the rest of the batch is applied; the retry finishes", async () => {
    const owner = await signedInUser(w.t);
    const [good, bad] = [await signedInUser(w.t), await signedInUser(w.t)];
    const c = await paidCommunity(w, owner);
    const paidGood = await payTier(w, good, c);
    const paidBad = await payTier(w, bad, c);
    // The bad member's subscription now breaks the provider's read (a malformed answer).
    const broken = w.fake.object<FakeSubscription>(paidBad.subId)!;
    const items = broken.items;
    (broken as { items: unknown }).items = null;
    for (const e of [...paidBad.events, ...paidGood.events]) await deliver(w, e);
    await w.t.app.ctx.worker.runOnce();
    expect(await roleOf(w, c, good)).toBe("member");
    expect(await paymentsOf(w, good)).toHaveLength(1);
    expect(await roleOf(w, c, bad)).toBeNull();
    const waiting = await count(
      `SELECT count(*) AS n FROM payment_events WHERE id = ANY($1) AND processed_at IS NULL AND error IS NOT NULL`,
      [paidBad.events.map((e) => e.id)],
    );
    expect(waiting).toBeGreaterThan(0);
    // Stripe answers properly again; the retries (made due now) apply the rest, once.
    broken.items = items;
    await w.t.database.pool.query(`UPDATE jobs SET run_at = now() WHERE queue = 'payments.event' AND done_at IS NULL`);
    await drain(w.t.app);
    expect(await roleOf(w, c, bad)).toBe("member");
    for (const u of [good, bad]) {
      expect(await entitlementsOf(w, u)).toMatchObject([{ status: "active" }]);
      expect(await paymentsOf(w, u)).toHaveLength(1);
    }
    expect(
      await count(`SELECT count(*) AS n FROM payment_events WHERE id = ANY($1) AND processed_at IS NULL`, [
        [...paidBad.events, ...paidGood.events].map((e) => e.id),
      ]),
    ).toBe(0);
  });
});
