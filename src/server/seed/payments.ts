import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { entitlements, payments, prices, simulatedObjects, communityTiers } from "#server/db/schema/index";
import { prng } from "./art";
import type { SeededCommunity, Tx } from "./communities";

/*
 * Demo money (issue 18): the paid demo communities' tiers and prices, and subscribers paying
 * through the simulated provider (its own objects included, so renewals and reconciliation treat
 * them like any other), with a year of payments behind the Metrics tab's revenue.
 */

type TierDef = { name: string; description: string; monthly: number | null; annual: number | null; trialDays?: number };

/** Tiers of the paid demo communities by name; any other paid one sells one "Members" tier at its price. */
const TIERS: Record<string, TierDef[]> = {
  "Indie Founders Club": [
    {
      name: "Standard",
      description: "The community, the weekly threads and every course.",
      monthly: 4900,
      annual: 49000,
    },
    {
      name: "VIP",
      description: "Everything in Standard, plus monthly office hours and the VIP room.",
      monthly: 14900,
      annual: null,
      trialDays: 7,
    },
  ],
  "Dividend Investors Circle": [
    { name: "Free", description: "Read and join the discussions.", monthly: null, annual: null },
    { name: "Premium", description: "Portfolio reviews and the full course library.", monthly: 1900, annual: 19000 },
  ],
};

const DAY = 86_400_000;
const MONTH = 30 * DAY;

export async function seedPayments(input: { tx: Tx; seeded: SeededCommunity[]; now: number }) {
  const { tx, seeded, now } = input;
  const rand = prng(0x5eed18);
  const tierRows: (typeof communityTiers.$inferInsert)[] = [];
  const priceRows: (typeof prices.$inferInsert)[] = [];
  const entitlementRows: (typeof entitlements.$inferInsert)[] = [];
  const paymentRows: (typeof payments.$inferInsert)[] = [];
  const objects: (typeof simulatedObjects.$inferInsert)[] = [];

  for (const c of seeded) {
    if (!c.def.price) continue;
    const defs = TIERS[c.def.name] ?? [
      { name: "Members", description: "Full access to the community.", monthly: c.def.price * 100, annual: null },
    ];
    const paidPrices: { id: string; tierId: string; amount: number; interval: "month" | "year"; trialDays: number }[] =
      [];
    defs.forEach((d, position) => {
      const tierId = randomUUID();
      tierRows.push({
        id: tierId,
        communityId: c.id,
        position,
        name: d.name,
        description: d.description,
        isFree: d.monthly === null,
        trialDays: d.trialDays ?? 0,
        createdAt: c.createdAt,
        updatedAt: c.createdAt,
      });
      for (const [interval, amount] of [
        ["month", d.monthly],
        ["year", d.annual],
      ] as const) {
        if (amount === null) continue;
        const id = randomUUID();
        priceRows.push({
          id,
          product: "tier",
          communityId: c.id,
          tierId,
          interval,
          currency: "usd",
          amount,
          trialDays: d.trialDays ?? 0,
          providerPriceId: `sim_price_${id}`,
          createdAt: c.createdAt,
        });
        paidPrices.push({ id, tierId, amount, interval, trialDays: d.trialDays ?? 0 });
      }
    });
    // Most plain members pay; the rest joined before the community charged (they hold no entitlement).
    for (const m of c.members) {
      if (m.role !== "member" || rand() > 0.7) continue;
      const price = paidPrices[Math.floor(rand() * paidPrices.length)];
      const joined = m.joinedAt.getTime();
      const roll = rand();
      const status =
        roll < 0.04
          ? "past_due"
          : roll < 0.1
            ? "canceled"
            : price.trialDays && now - joined < 7 * DAY
              ? "trialing"
              : "active";
      const periodMs = price.interval === "month" ? MONTH : 12 * MONTH;
      const periods = Math.max(1, Math.ceil((now - joined) / periodMs));
      const periodEnd = new Date(joined + periods * periodMs);
      const subId = `sim_sub_seed_${randomUUID()}`;
      const entitlementId = randomUUID();
      entitlementRows.push({
        id: entitlementId,
        userId: m.userId,
        kind: "community",
        communityId: c.id,
        tierId: price.tierId,
        priceId: price.id,
        status,
        provider: "simulated",
        providerCustomerId: `sim_cus_${m.userId}`,
        providerSubscriptionId: subId,
        amount: price.amount,
        currency: "usd",
        interval: price.interval,
        currentPeriodEnd: periodEnd,
        cancelAtPeriodEnd: status === "canceled",
        trialEndsAt: status === "trialing" ? new Date(joined + 7 * DAY) : null,
        graceEndsAt: status === "past_due" ? new Date(now + 5 * DAY) : null,
        createdAt: m.joinedAt,
        updatedAt: m.joinedAt,
      });
      objects.push({
        id: subId,
        kind: "subscription",
        data: {
          id: subId,
          customerId: `sim_cus_${m.userId}`,
          status: status === "canceled" ? "active" : status,
          providerPriceId: `sim_price_${price.id}`,
          currentPeriodEnd: periodEnd.toISOString(),
          cancelAtPeriodEnd: status === "canceled",
          trialEnd: null,
          updatedAt: new Date(now).toISOString(),
          metadata: { user_id: m.userId, price_id: price.id, checkout_id: "" },
          interval: price.interval,
          amount: price.amount,
          currency: "usd",
        },
      });
      // A charge per period paid so far (the last one failed for those past due), at most a year back.
      for (let i = Math.max(0, periods - 12); i < periods; i++) {
        if (status === "trialing") break;
        const failed = status === "past_due" && i === periods - 1;
        paymentRows.push({
          entitlementId,
          userId: m.userId,
          communityId: c.id,
          kind: "charge",
          status: failed ? "failed" : "succeeded",
          amount: price.amount,
          currency: "usd",
          provider: "simulated",
          providerRef: `sim_in_seed_${entitlementId}_${i}`,
          description: "Membership",
          createdAt: new Date(joined + i * periodMs),
        });
      }
    }
  }
  const chunks = <T>(rows: T[], size = 1000) =>
    Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));
  if (tierRows.length) await tx.insert(communityTiers).values(tierRows);
  if (priceRows.length) await tx.insert(prices).values(priceRows);
  for (const part of chunks(entitlementRows)) await tx.insert(entitlements).values(part);
  for (const part of chunks(objects)) await tx.insert(simulatedObjects).values(part);
  for (const part of chunks(paymentRows)) await tx.insert(payments).values(part);
  // The communities show their lowest monthly price.
  await tx.execute(sql`
    UPDATE communities c SET price = lowest.amount / 100.0
      FROM (SELECT t.community_id, min(p.amount) AS amount FROM prices p JOIN community_tiers t ON t.id = p.tier_id
             WHERE p.interval = 'month' AND p.active GROUP BY t.community_id) lowest
     WHERE lowest.community_id = c.id`);
  return { tiers: tierRows.length, subscribers: entitlementRows.length, payments: paymentRows.length };
}
