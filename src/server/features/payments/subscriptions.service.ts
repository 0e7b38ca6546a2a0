import { and, desc, eq, sql } from "drizzle-orm";
import { entitlementOpen, PAYMENT_MESSAGES as PM, type RecurringInterval } from "#shared/payments";
import type { AppContext, Viewer } from "#server/context";
import { communityTiers, entitlements, prices } from "#server/db/schema/index";
import { AppError } from "#server/lib/errors";
import { applySubscription, type EntitlementRow } from "./entitlements";
import { paymentProvider } from "./provider-registry";

/*
 * The member's billing page: their subscriptions, purchases and payments, and what they may do with
 * a subscription (cancel at the period's end, resume, change plan, the provider's portal). Each
 * action goes to the provider first and applies what the provider answers.
 */

export type SubscriptionView = {
  id: string;
  kind: "community" | "creator_plan";
  status: EntitlementRow["status"];
  open: boolean;
  community: { id: string; slug: string; name: string; icon_url: string | null } | null;
  tier: { id: string; name: string } | null;
  amount: number;
  currency: string;
  interval: "month" | "year" | "once";
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  trial_ends_at: string | null;
  grace_ends_at: string | null;
  /** When the next charge is due, if one is. */
  next_charge_at: string | null;
};

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** Everything on the billing page, for the viewer only. */
export async function billingOverview(ctx: AppContext, viewer: Viewer) {
  const provider = await paymentProvider(ctx);
  const rows = await ctx.db.execute<
    EntitlementRow & {
      c_id: string | null;
      c_slug: string | null;
      c_name: string | null;
      c_icon: string | null;
      tier_name: string | null;
      course_title: string | null;
    }
  >(sql`
    SELECT e.id, e.kind, e.status, e.amount, e.currency, e.interval, e.current_period_end AS "currentPeriodEnd",
           e.cancel_at_period_end AS "cancelAtPeriodEnd", e.trial_ends_at AS "trialEndsAt", e.grace_ends_at AS "graceEndsAt",
           e.tier_id AS "tierId", e.course_id AS "courseId", e.created_at AS "createdAt",
           c.id AS c_id, c.slug AS c_slug, c.name AS c_name, c.icon_url AS c_icon, t.name AS tier_name, co.title AS course_title
      FROM entitlements e
      LEFT JOIN communities c ON c.id = e.community_id
      LEFT JOIN community_tiers t ON t.id = e.tier_id
      LEFT JOIN courses co ON co.id = e.course_id
     WHERE e.user_id = ${viewer.id}
     ORDER BY e.created_at DESC
     LIMIT 200`);
  const community = (r: (typeof rows.rows)[number]) =>
    r.c_id ? { id: r.c_id, slug: r.c_slug!, name: r.c_name!, icon_url: r.c_icon } : null;
  const subscriptions: SubscriptionView[] = rows.rows
    .filter((r) => r.kind !== "course")
    .map((r) => {
      const open = entitlementOpen({
        status: r.status,
        current_period_end: r.currentPeriodEnd,
        grace_ends_at: r.graceEndsAt,
      });
      return {
        id: r.id,
        kind: r.kind as SubscriptionView["kind"],
        status: r.status,
        open,
        community: community(r),
        tier: r.tierId && r.tier_name ? { id: r.tierId, name: r.tier_name } : null,
        amount: r.amount,
        currency: r.currency,
        interval: r.interval,
        current_period_end: iso(r.currentPeriodEnd),
        cancel_at_period_end: r.cancelAtPeriodEnd,
        trial_ends_at: iso(r.trialEndsAt),
        grace_ends_at: iso(r.graceEndsAt),
        next_charge_at:
          (r.status === "active" || r.status === "trialing") && !r.cancelAtPeriodEnd ? iso(r.currentPeriodEnd) : null,
      };
    });
  const purchases = rows.rows
    .filter((r) => r.kind === "course")
    .map((r) => ({
      id: r.id,
      status: r.status,
      course: r.courseId ? { id: r.courseId, title: r.course_title ?? "" } : null,
      community: community(r),
      amount: r.amount,
      currency: r.currency,
      purchased_at: iso(r.createdAt)!,
    }));
  const paid = await ctx.db.execute<{
    id: string;
    kind: "charge" | "refund";
    status: "succeeded" | "failed";
    amount: number;
    currency: string;
    description: string;
    receipt_url: string | null;
    created_at: Date;
    community_name: string | null;
  }>(sql`
    SELECT p.id, p.kind, p.status, p.amount, p.currency, p.description, p.receipt_url, p.created_at, c.name AS community_name
      FROM payments p LEFT JOIN communities c ON c.id = p.community_id
     WHERE p.user_id = ${viewer.id}
     ORDER BY p.created_at DESC LIMIT 100`);
  return {
    provider: provider.name,
    subscriptions,
    purchases,
    payments: paid.rows.map((p) => ({ ...p, created_at: iso(p.created_at)! })),
  };
}

/** One of the viewer's subscriptions (another's answers as missing). */
async function ownSubscription(ctx: AppContext, viewer: Viewer, id: string) {
  const notFound = () => new AppError("NOT_FOUND", PM.subscriptionNotFound);
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound();
  const [row] = await ctx.db
    .select()
    .from(entitlements)
    .where(and(eq(entitlements.id, id), eq(entitlements.userId, viewer.id)));
  if (!row?.providerSubscriptionId) throw notFound();
  return row as EntitlementRow & { providerSubscriptionId: string };
}

const stillRunning = (e: EntitlementRow) => e.status !== "expired" && e.status !== "refunded";

/** Cancel at the end of the paid period (access stays until then), or take the cancellation back. */
export async function setCancellation(ctx: AppContext, viewer: Viewer, id: string, cancel: boolean) {
  const e = await ownSubscription(ctx, viewer, id);
  if (!stillRunning(e)) throw new AppError("CONFLICT", "This membership has already ended");
  const provider = await paymentProvider(ctx);
  await provider.setCancelAtPeriodEnd(e.providerSubscriptionId, cancel);
  return applySubscription(ctx, provider, e.providerSubscriptionId);
}

/** 'Change plan': another tier or interval of the same community, at its current price. */
export async function changePlan(
  ctx: AppContext,
  viewer: Viewer,
  id: string,
  input: { tier_id: string; interval: RecurringInterval },
) {
  const e = await ownSubscription(ctx, viewer, id);
  if (!stillRunning(e) || e.kind !== "community") throw new AppError("CONFLICT", "This membership has already ended");
  const [target] = await ctx.db
    .select({ price: prices, tier: communityTiers })
    .from(prices)
    .innerJoin(communityTiers, eq(communityTiers.id, prices.tierId))
    .where(
      and(
        eq(prices.tierId, input.tier_id),
        eq(prices.interval, input.interval),
        eq(prices.active, true),
        eq(communityTiers.communityId, e.communityId!),
        sql`${communityTiers.archivedAt} IS NULL`,
      ),
    )
    .orderBy(desc(prices.createdAt))
    .limit(1);
  if (!target) throw new AppError("BAD_REQUEST", PM.priceUnavailable);
  if (target.price.id === e.priceId) throw new AppError("CONFLICT", "You are already on this plan");
  if (target.price.currency !== e.currency)
    throw new AppError("CONFLICT", "This plan is in another currency: cancel and subscribe again");
  const provider = await paymentProvider(ctx);
  const providerPriceId =
    target.price.providerPriceId ??
    (await provider.ensurePrice({
      id: target.price.id,
      providerPriceId: null,
      amount: target.price.amount,
      currency: target.price.currency,
      interval: target.price.interval,
      trialDays: 0,
      productName: target.tier.name,
    }));
  if (!target.price.providerPriceId)
    await ctx.db
      .update(prices)
      .set({ providerPriceId })
      .where(and(eq(prices.id, target.price.id), sql`${prices.providerPriceId} IS NULL`));
  await provider.changePrice(e.providerSubscriptionId, providerPriceId);
  return applySubscription(ctx, provider, e.providerSubscriptionId);
}

/** The provider's customer portal (card, invoices, cancel), where the provider has one. */
export async function portalLink(ctx: AppContext, viewer: Viewer) {
  const provider = await paymentProvider(ctx);
  const [e] = await ctx.db
    .select({ customer: entitlements.providerCustomerId })
    .from(entitlements)
    .where(and(eq(entitlements.userId, viewer.id), eq(entitlements.provider, provider.name)))
    .orderBy(desc(entitlements.createdAt))
    .limit(1);
  const url = e?.customer ? await provider.portalUrl(e.customer, `${ctx.config.publicUrl}/billing`) : null;
  if (!url) throw new AppError("NOT_FOUND", "There is no billing portal for your account");
  return { url };
}

/**
 * A member who leaves, or is removed or banned, is not charged again: each running subscription
 * to that community is set to end with its paid period (no refund; the provider's answer is
 * applied). A provider that cannot be reached leaves it to the hourly reconciliation, logged.
 */
export async function stopRenewals(ctx: AppContext, userId: string, communityId: string) {
  const running = await ctx.db
    .select({ sub: entitlements.providerSubscriptionId })
    .from(entitlements)
    .where(
      and(
        eq(entitlements.userId, userId),
        eq(entitlements.communityId, communityId),
        eq(entitlements.kind, "community"),
        sql`${entitlements.status} IN ('trialing', 'active', 'past_due')`,
        sql`${entitlements.providerSubscriptionId} IS NOT NULL`,
      ),
    );
  if (running.length === 0) return;
  const provider = await paymentProvider(ctx);
  for (const { sub } of running) {
    try {
      await provider.setCancelAtPeriodEnd(sub!, true);
      await applySubscription(ctx, provider, sub!);
    } catch (err) {
      ctx.log.error({ err, subscription: sub }, "payments: could not stop a subscription's renewals");
    }
  }
}
