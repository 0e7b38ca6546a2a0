import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { PAYMENT_MESSAGES as PM, type CheckoutInput, type CheckoutStatus } from "#shared/payments";
import { can, isRole } from "#shared/roles";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import {
  checkoutSessions,
  communities,
  communityTiers,
  courses,
  entitlements,
  payoutAccounts,
  prices,
} from "#server/db/schema/index";
import { hasApprovedRequest } from "#server/features/membership/index";
import { isBanned, roleIn } from "#server/lib/community-access";
import { courseEntitlementSql, entitlementOpenSql } from "#server/lib/entitlement-access";
import { AppError } from "#server/lib/errors";
import { RATE_RULES } from "#server/lib/rate-limit";
import { JOIN_MESSAGES } from "#shared/membership";
import { MSG } from "#shared/messages";
import type { PaymentProvider } from "./provider";
import { paymentProvider, isSimulated } from "./provider-registry";
import { processStoredEvent, receiveEvents } from "./events";

/*
 * Starting a checkout: the request names a tier and an interval, or a course; the amount is always
 * the server's stored active price. Access does not start here, nor when the browser comes back:
 * only when the provider's confirmation is processed (events.ts).
 */

type PriceRow = typeof prices.$inferSelect;
type Sellable = {
  price: PriceRow;
  community: { id: string; slug: string; name: string };
  productName: string;
  returnTo: string;
};

const tierNotFound = () => new AppError("NOT_FOUND", PM.tierNotFound);

/** Has the viewer an open community membership bought here already? */
async function holdsCommunity(db: Queryable, userId: string, communityId: string) {
  const res = await db.execute(sql`
    SELECT 1 FROM entitlements e WHERE e.user_id = ${userId} AND e.community_id = ${communityId}
       AND e.kind = 'community' AND ${entitlementOpenSql("e")}`);
  return res.rows.length > 0;
}

/** A tier's active price for the interval, if the viewer may buy it. */
async function sellableTier(ctx: AppContext, viewer: Viewer, input: Extract<CheckoutInput, { product: "tier" }>) {
  const [row] = await ctx.db
    .select({ tier: communityTiers, community: communities })
    .from(communityTiers)
    .innerJoin(communities, eq(communities.id, communityTiers.communityId))
    .where(and(eq(communityTiers.id, input.tier_id), isNull(communityTiers.archivedAt)));
  if (!row) throw tierNotFound();
  const { tier, community } = row;
  const role = await roleIn(ctx.db, community.id, viewer.id);
  const invited =
    input.invite_code !== undefined && community.inviteEnabled && input.invite_code === community.inviteCode;
  // A community taking requests sells its tiers to members and approved applicants only.
  const approved =
    !role &&
    !invited &&
    community.joinPolicy === "request" &&
    (await hasApprovedRequest(ctx.db, community.id, viewer.id));
  if (community.visibility === "private" && !role && !invited && !approved) throw tierNotFound();
  if (!role && !invited && !approved && community.joinPolicy !== "open") {
    throw new AppError(
      "FORBIDDEN",
      community.joinPolicy === "request" ? JOIN_MESSAGES.requestNeeded : JOIN_MESSAGES.inviteOnly,
    );
  }
  if (await isBanned(ctx.db, community.id, viewer.id)) throw new AppError("FORBIDDEN", MSG.bannedFromCommunity);
  if (tier.isFree) throw new AppError("BAD_REQUEST", PM.priceUnavailable);
  if (isRole(role) && can(role, "manage_settings")) throw new AppError("CONFLICT", PM.alreadySubscribed);
  if (await holdsCommunity(ctx.db, viewer.id, community.id)) throw new AppError("CONFLICT", PM.alreadySubscribed);
  const [price] = await ctx.db
    .select()
    .from(prices)
    .where(and(eq(prices.tierId, tier.id), eq(prices.interval, input.interval), eq(prices.active, true)))
    .orderBy(desc(prices.createdAt))
    .limit(1);
  if (!price) throw new AppError("BAD_REQUEST", PM.priceUnavailable);
  return {
    price,
    community: { id: community.id, slug: community.slug, name: community.name },
    productName: `${community.name} · ${tier.name}`,
    returnTo: `/community/${community.slug}`,
  } satisfies Sellable;
}

/** A sold course's active price, for a member who does not own it yet. */
async function sellableCourse(ctx: AppContext, viewer: Viewer, courseId: string) {
  const notFound = () => new AppError("NOT_FOUND", "Course not found");
  const [row] = await ctx.db
    .select({
      course: courses,
      community: communities,
      owned: sql<boolean>`${courseEntitlementSql(sql`${courses.id}`, viewer.id)}`,
    })
    .from(courses)
    .innerJoin(communities, eq(communities.id, courses.communityId))
    .where(eq(courses.id, courseId));
  if (!row) throw notFound();
  const role = await roleIn(ctx.db, row.community.id, viewer.id);
  const staff = isRole(role) && can(role, "manage_courses");
  if ((row.community.visibility === "private" && !role) || (row.course.status !== "published" && !staff))
    throw notFound();
  if (!role) throw new AppError("FORBIDDEN", "Join the community to buy its courses");
  if (row.course.access !== "sold") throw new AppError("BAD_REQUEST", PM.notSold);
  if (staff || row.owned) throw new AppError("CONFLICT", PM.alreadyPurchased);
  const [price] = await ctx.db
    .select()
    .from(prices)
    .where(and(eq(prices.courseId, courseId), eq(prices.interval, "once"), eq(prices.active, true)))
    .orderBy(desc(prices.createdAt))
    .limit(1);
  if (!price) throw new AppError("BAD_REQUEST", PM.notSold);
  return {
    price,
    community: { id: row.community.id, slug: row.community.slug, name: row.community.name },
    productName: row.course.title,
    returnTo: `/community/${row.community.slug}/course/${row.course.id}`,
  } satisfies Sellable;
}

/** The provider's price for a stored one, made once and remembered. */
async function providerPrice(ctx: AppContext, provider: PaymentProvider, price: PriceRow, productName: string) {
  if (price.providerPriceId) return price.providerPriceId;
  const made = await provider.ensurePrice({
    id: price.id,
    providerPriceId: null,
    amount: price.amount,
    currency: price.currency,
    interval: price.interval,
    trialDays: price.trialDays,
    productName,
  });
  await ctx.db
    .update(prices)
    .set({ providerPriceId: made })
    .where(and(eq(prices.id, price.id), isNull(prices.providerPriceId)));
  return made;
}

/** Stripe Connect: the community's account, which must be able to take charges. */
async function connectTarget(ctx: AppContext, communityId: string) {
  const settings = ctx.config.payments;
  if (!settings.connect) return null;
  const [account] = await ctx.db.select().from(payoutAccounts).where(eq(payoutAccounts.communityId, communityId));
  if (!account?.chargesEnabled) throw new AppError("CONFLICT", PM.connectNeeded);
  return { accountId: account.providerAccountId, feePercent: settings.platformFeePercent };
}

/** Starts a checkout; answers its id and where to send the browser. */
export async function startCheckout(ctx: AppContext, viewer: Viewer, input: CheckoutInput) {
  await ctx.rateLimiter.hit(`checkout:${viewer.id}`, RATE_RULES.checkoutPerUser);
  const sale =
    input.product === "tier"
      ? await sellableTier(ctx, viewer, input)
      : await sellableCourse(ctx, viewer, input.course_id);
  const provider = await paymentProvider(ctx);
  const connect = await connectTarget(ctx, sale.community.id);
  const providerPriceId = await providerPrice(ctx, provider, sale.price, sale.productName);
  const [session] = await ctx.db
    .insert(checkoutSessions)
    .values({
      userId: viewer.id,
      priceId: sale.price.id,
      communityId: sale.community.id,
      provider: provider.name,
      returnTo: sale.returnTo,
    })
    .returning();
  const [customer] = await ctx.db
    .select({ id: entitlements.providerCustomerId })
    .from(entitlements)
    .where(and(eq(entitlements.userId, viewer.id), eq(entitlements.provider, provider.name)))
    .orderBy(desc(entitlements.createdAt))
    .limit(1);
  const base = ctx.config.publicUrl;
  const made = await provider.createCheckout({
    checkoutId: session.id,
    userId: viewer.id,
    email: viewer.email,
    customerId: customer?.id ?? null,
    price: {
      id: sale.price.id,
      providerPriceId,
      amount: sale.price.amount,
      currency: sale.price.currency,
      interval: sale.price.interval,
      trialDays: sale.price.trialDays,
      productName: sale.productName,
    },
    successUrl: `${base}/billing/checkout/${session.id}`,
    cancelUrl: `${base}${sale.returnTo}`,
    connect,
  });
  await ctx.db
    .update(checkoutSessions)
    .set({ providerSessionId: made.sessionId, updatedAt: new Date() })
    .where(eq(checkoutSessions.id, session.id));
  // The simulated card form is this site's own page, reached without leaving it.
  const url = isSimulated(provider) ? `/billing/checkout/${session.id}` : made.url;
  return { checkout_id: session.id, url, provider: provider.name };
}

export type CheckoutView = {
  id: string;
  status: CheckoutStatus;
  provider: PaymentProvider["name"];
  return_to: string;
  product: {
    kind: "tier" | "course" | "creator_plan";
    name: string;
    amount: number;
    currency: string;
    interval: "month" | "year" | "once";
    trial_days: number;
    community: { id: string; slug: string; name: string } | null;
  };
};

async function ownCheckout(ctx: AppContext, viewer: Viewer, checkoutId: string) {
  const notFound = () => new AppError("NOT_FOUND", "Checkout not found");
  if (!/^[0-9a-f-]{36}$/i.test(checkoutId)) throw notFound();
  const [row] = await ctx.db
    .select({ session: checkoutSessions, price: prices })
    .from(checkoutSessions)
    .innerJoin(prices, eq(prices.id, checkoutSessions.priceId))
    .where(and(eq(checkoutSessions.id, checkoutId), eq(checkoutSessions.userId, viewer.id)));
  if (!row) throw notFound();
  return row;
}

/** The waiting page's question: is the payment confirmed yet? */
export async function checkoutView(ctx: AppContext, viewer: Viewer, checkoutId: string): Promise<CheckoutView> {
  const { session, price } = await ownCheckout(ctx, viewer, checkoutId);
  const [names] = (
    await ctx.db.execute<{ c_id: string | null; c_slug: string | null; c_name: string | null; name: string }>(sql`
      SELECT c.id AS c_id, c.slug AS c_slug, c.name AS c_name,
             coalesce(co.title, t.name, 'Creator plan') AS name
        FROM (SELECT 1) one
        LEFT JOIN communities c ON c.id = ${price.communityId}::uuid
        LEFT JOIN community_tiers t ON t.id = ${price.tierId}::uuid
        LEFT JOIN courses co ON co.id = ${price.courseId}::uuid`)
  ).rows;
  return {
    id: session.id,
    status: session.status,
    provider: session.provider,
    return_to: session.returnTo,
    product: {
      kind: price.product,
      name: names?.name ?? "",
      amount: price.amount,
      currency: price.currency,
      interval: price.interval,
      trial_days: price.trialDays,
      community: names?.c_id ? { id: names.c_id, slug: names.c_slug!, name: names.c_name! } : null,
    },
  };
}

/**
 * The simulated card form was submitted (no card data reaches the server): the simulated provider
 * completes its checkout and reports it, and the report is processed like a webhook.
 */
export async function payWithSimulatedCard(ctx: AppContext, viewer: Viewer, checkoutId: string) {
  const provider = await paymentProvider(ctx);
  if (!isSimulated(provider)) throw new AppError("NOT_FOUND", "Checkout not found");
  const { session } = await ownCheckout(ctx, viewer, checkoutId);
  if (session.status !== "open" || !session.providerSessionId) return checkoutView(ctx, viewer, checkoutId);
  await receiveEvents(ctx, provider, await provider.complete(session.providerSessionId));
  return checkoutView(ctx, viewer, checkoutId);
}

/**
 * The simulated provider's one-step purchase of a course (API clients and tests): the same
 * checkout, provider confirmation and event processing as the checkout page, processed at once
 * instead of by the queue. One at a time per buyer and course, so a doubled request buys once.
 * With Stripe there is no such shortcut: the card is taken on Stripe's page.
 */
export async function buyCourseAtOnce(ctx: AppContext, viewer: Viewer, courseId: string) {
  const provider = await paymentProvider(ctx);
  if (!isSimulated(provider)) throw new AppError("CONFLICT", "Courses are bought through the checkout");
  await ctx.db.transaction(async (tx) => {
    // Held across the purchase (another connection does the work): a second request waits, then
    // finds the course owned.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`hearth:buy:${viewer.id}:${courseId}`}))`);
    const owned = await tx.execute(sql`SELECT ${courseEntitlementSql(sql`${courseId}::uuid`, viewer.id)} AS owns`);
    if (owned.rows[0]?.owns === true) return;
    const { checkout_id } = await startCheckout(ctx, viewer, { product: "course", course_id: courseId });
    const [session] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, checkout_id));
    const events = await provider.complete(session.providerSessionId!);
    await receiveEvents(ctx, provider, events);
    for (const event of events) await processStoredEvent(ctx, provider, event.id);
  });
}
