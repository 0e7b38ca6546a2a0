import { and, desc, eq } from "drizzle-orm";
import { PLANS, TRIAL_DAYS, type PlanId } from "#shared/billing";
import type { AppContext, Viewer } from "#server/context";
import { checkoutSessions, prices } from "#server/db/schema/index";
import { receiveEvents } from "./events";
import { isSimulated, paymentProvider } from "./provider-registry";

/*
 * The creator plan of the sign-up funnel ($99/month, or $97/month billed yearly, 14-day trial),
 * charged to the instance's own account (never a Connect account). Its prices are rows of `prices`
 * made on first use; a change to PLANS makes new rows, and subscribers keep theirs.
 */

async function creatorPrice(ctx: AppContext, plan: PlanId) {
  const interval = plan === "annual" ? "year" : "month";
  const amount = PLANS[plan].pricePerMonth * 100 * (plan === "annual" ? 12 : 1);
  const [current] = await ctx.db
    .select()
    .from(prices)
    .where(and(eq(prices.product, "creator_plan"), eq(prices.plan, plan), eq(prices.active, true)))
    .orderBy(desc(prices.createdAt))
    .limit(1);
  if (current && current.amount === amount && current.trialDays === TRIAL_DAYS) return current;
  return ctx.db.transaction(async (tx) => {
    if (current) await tx.update(prices).set({ active: false }).where(eq(prices.id, current.id));
    const [made] = await tx
      .insert(prices)
      .values({ product: "creator_plan", plan, interval, currency: "usd", amount, trialDays: TRIAL_DAYS })
      .returning();
    return made;
  });
}

/**
 * Starts the creator plan's checkout. With the simulated provider the funnel's card form was the
 * payment: the checkout completes at once and its confirmation goes through the event queue like
 * any other. With Stripe, the answer is Stripe Checkout's address (the card is taken there).
 */
export async function startCreatorPlanCheckout(ctx: AppContext, viewer: Viewer, plan: PlanId, returnTo: string) {
  const provider = await paymentProvider(ctx);
  const price = await creatorPrice(ctx, plan);
  const productName = `Hearth creator plan (${PLANS[plan].label})`;
  const providerPriceId =
    price.providerPriceId ??
    (await provider.ensurePrice({ ...price, providerPriceId: null, productName }).then(async (made) => {
      await ctx.db.update(prices).set({ providerPriceId: made }).where(eq(prices.id, price.id));
      return made;
    }));
  const [session] = await ctx.db
    .insert(checkoutSessions)
    .values({ userId: viewer.id, priceId: price.id, provider: provider.name, returnTo })
    .returning();
  const made = await provider.createCheckout({
    checkoutId: session.id,
    userId: viewer.id,
    email: viewer.email,
    customerId: null,
    price: { ...price, providerPriceId, productName },
    successUrl: `${ctx.config.publicUrl}/billing/checkout/${session.id}`,
    cancelUrl: `${ctx.config.publicUrl}${returnTo}`,
    connect: null,
  });
  await ctx.db
    .update(checkoutSessions)
    .set({ providerSessionId: made.sessionId })
    .where(eq(checkoutSessions.id, session.id));
  if (isSimulated(provider)) {
    await receiveEvents(ctx, provider, await provider.complete(made.sessionId));
    return { checkout_id: session.id, checkout_url: null };
  }
  return { checkout_id: session.id, checkout_url: made.url };
}
