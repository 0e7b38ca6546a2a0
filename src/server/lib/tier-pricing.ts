import { sql } from "drizzle-orm";
import { MSG } from "#shared/messages";
import {
  fromMinor,
  PAYMENT_MESSAGES,
  pricingInputSchema,
  toMinor,
  type PricingInput,
  type RecurringInterval,
} from "#shared/payments";
import type { Queryable, Tx } from "#server/db/client";
import type { CommunityRow } from "./community-access";
import { entitlementOpenText } from "./entitlement-access";
import { AppError } from "./errors";

// A community's tiers and their prices as stored (issue 18, docs/payments.md): read by the pricing
// routes, written by the Pricing tab and by the community settings' one-price form. A price row
// never changes: a new amount is a new row and the old one is deactivated, so an entitlement keeps
// naming the price its holder signed up at.

type PriceRef = { id: string; amount: number } | null;
type TierRow = {
  id: string;
  name: string;
  description: string;
  free: boolean;
  trial_days: number;
  position: number;
  month: PriceRef;
  year: PriceRef;
  subscribers: number;
};

/** The community's tiers on sale (not archived) in order, with their active prices. */
export async function readTiers(db: Queryable, communityId: string, withSubscribers: boolean) {
  const priceOf = (interval: RecurringInterval) =>
    sql.raw(`(SELECT json_build_object('id', p.id, 'amount', p.amount) FROM prices p
               WHERE p.tier_id = t.id AND p.interval = '${interval}' AND p.active
               ORDER BY p.created_at DESC LIMIT 1)`);
  const res = await db.execute<TierRow>(sql`
    SELECT t.id, t.name, t.description, t.is_free AS free, t.trial_days, t.position,
           ${priceOf("month")} AS month, ${priceOf("year")} AS year,
           ${
             withSubscribers
               ? sql.raw(`(SELECT count(*)::int FROM entitlements e
                  WHERE e.kind = 'community' AND e.tier_id = t.id AND ${entitlementOpenText("e")})`)
               : sql`0`
           } AS subscribers
      FROM community_tiers t
     WHERE t.community_id = ${communityId} AND t.archived_at IS NULL
     ORDER BY t.position, t.created_at`);
  return res.rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    free: r.free,
    trial_days: r.trial_days,
    position: r.position,
    prices: { month: r.month, year: r.year },
    ...(withSubscribers ? { subscribers: r.subscribers } : {}),
  }));
}

/** Deactivates the tier's active price of this interval unless it already sells `want`; inserts `want` if new. */
async function syncPrice(
  tx: Tx,
  tier: { id: string; communityId: string },
  interval: RecurringInterval,
  want: { amount: number; currency: string; trialDays: number } | null,
) {
  const res = await tx.execute<{ id: string; amount: number; currency: string; trial_days: number }>(sql`
    SELECT id, amount, currency, trial_days FROM prices
     WHERE tier_id = ${tier.id} AND product = 'tier' AND interval = ${interval} AND active`);
  const same = (p: (typeof res.rows)[number]) =>
    want !== null && p.amount === want.amount && p.currency === want.currency && p.trial_days === want.trialDays;
  const keep = res.rows.find(same);
  const stale = res.rows.filter((p) => p !== keep).map((p) => p.id);
  if (stale.length > 0) {
    await tx.execute(sql`UPDATE prices SET active = false WHERE id = ANY(${sql.param(stale)}::uuid[])`);
  }
  if (want && !keep) {
    await tx.execute(sql`
      INSERT INTO prices (product, community_id, tier_id, interval, currency, amount, trial_days)
      VALUES ('tier', ${tier.communityId}, ${tier.id}, ${interval}, ${want.currency}, ${want.amount}, ${want.trialDays})`);
  }
}

/**
 * The Pricing tab's save, in one transaction with the community row locked: tiers matched by id,
 * new ones inserted, missing ones archived (their prices taken off sale), positions from the order;
 * changed prices replaced by new rows; then the community's type, displayed price and currency.
 */
export async function applyPricing(tx: Tx, communityId: string, input: PricingInput) {
  const locked = await tx.execute<{ id: string }>(sql`SELECT id FROM communities WHERE id = ${communityId} FOR UPDATE`);
  if (locked.rows.length === 0) throw new AppError("NOT_FOUND", MSG.communityNotFoundTitle);
  const existing = await tx.execute<{ id: string }>(
    sql`SELECT id FROM community_tiers WHERE community_id = ${communityId} AND archived_at IS NULL`,
  );
  const known = new Set(existing.rows.map((r) => r.id));
  const named = input.tiers.flatMap((t) => (t.id ? [t.id] : []));
  if (named.some((id) => !known.has(id)) || new Set(named).size !== named.length) {
    throw new AppError("VALIDATION", PAYMENT_MESSAGES.tierNotFound);
  }
  const kept: string[] = [];
  for (const [position, t] of input.tiers.entries()) {
    const res = t.id
      ? await tx.execute<{ id: string }>(sql`
          UPDATE community_tiers SET name = ${t.name}, description = ${t.description}, is_free = ${t.free},
                 trial_days = ${t.trial_days}, position = ${position}, updated_at = now()
           WHERE id = ${t.id} RETURNING id`)
      : await tx.execute<{ id: string }>(sql`
          INSERT INTO community_tiers (community_id, position, name, description, is_free, trial_days)
          VALUES (${communityId}, ${position}, ${t.name}, ${t.description}, ${t.free}, ${t.trial_days}) RETURNING id`);
    const tier = { id: res.rows[0].id, communityId };
    kept.push(tier.id);
    const want = (amount: number | null) =>
      t.free || amount === null ? null : { amount, currency: input.currency, trialDays: t.trial_days };
    await syncPrice(tx, tier, "month", want(t.monthly_amount));
    await syncPrice(tx, tier, "year", want(t.annual_amount));
  }
  // Removed tiers stay for the entitlements naming them, off sale.
  const removed = [...known].filter((id) => !kept.includes(id));
  if (removed.length > 0) {
    await tx.execute(sql`UPDATE community_tiers SET archived_at = now(), updated_at = now()
                          WHERE id = ANY(${sql.param(removed)}::uuid[])`);
    await tx.execute(
      sql`UPDATE prices SET active = false WHERE tier_id = ANY(${sql.param(removed)}::uuid[]) AND active`,
    );
  }
  const paid = input.tiers.filter((t) => !t.free && t.monthly_amount !== null);
  const lowest = paid.length > 0 ? Math.min(...paid.map((t) => t.monthly_amount as number)) : null;
  await tx.execute(sql`
    UPDATE communities SET type = ${lowest === null ? "free" : "paid"},
           price = ${lowest === null ? 0 : fromMinor(lowest, input.currency)},
           currency = ${input.currency}, grace_days = ${input.grace_days}, updated_at = now()
     WHERE id = ${communityId}`);
}

/**
 * The old one-price form (PATCH /api/communities/:id with type and price): the community's single
 * tier takes that monthly price, or becomes free. A community with several tiers is priced only
 * through the Pricing tab.
 */
export async function applySinglePrice(
  tx: Tx,
  community: Pick<CommunityRow, "id" | "currency" | "graceDays">,
  change: { type: "free" | "paid"; price: number },
) {
  const tiers = await readTiers(tx, community.id, false);
  if (tiers.length > 1) throw new AppError("VALIDATION", PAYMENT_MESSAGES.severalTiers);
  const current = tiers[0];
  const free = change.type === "free";
  if (free && !current) {
    await tx.execute(
      sql`UPDATE communities SET type = 'free', price = 0, updated_at = now() WHERE id = ${community.id}`,
    );
    return;
  }
  const currency = community.currency;
  const parsed = pricingInputSchema.safeParse({
    currency,
    grace_days: community.graceDays,
    tiers: [
      {
        id: current?.id,
        name: current?.name ?? "Members",
        description: current?.description ?? "",
        free,
        monthly_amount: free ? null : toMinor(change.price, currency),
        annual_amount: free ? null : (current?.prices.year?.amount ?? null),
        trial_days: current?.trial_days ?? 0,
      },
    ],
  });
  if (!parsed.success) throw new AppError("VALIDATION", parsed.error.issues[0].message);
  await applyPricing(tx, community.id, parsed.data);
}
