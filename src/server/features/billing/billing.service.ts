import { randomInt } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import {
  DEFAULT_PAID_COMMUNITY_PRICE,
  PAID_SLUG_TRIES,
  TRIAL_DAYS,
  type PlanId,
  type StartTrialInput,
} from "#shared/billing";
import { LIMITS } from "#shared/limits";
import { DEFAULT_CURRENCY, DEFAULT_GRACE_DAYS } from "#shared/payments";
import { MSG } from "#shared/messages";
import { slugify } from "#shared/communities";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { communities, creatorPlans } from "#server/db/schema/index";
import { insertOwnedCommunity, isUniqueViolation } from "#server/lib/community-access";
import { applySinglePrice } from "#server/lib/tier-pricing";
import { AppError } from "#server/lib/errors";
import { startCreatorPlanCheckout } from "#server/features/payments/index";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The name of a creator's first paid community: theirs, cut to the limit. */
function communityName(viewer: Viewer, local: string): string {
  const profile = viewer.profile as { full_name?: string } | null;
  const who = (profile?.full_name || viewer.name || local).trim() || local;
  const suffix = "'s Community";
  return `${who.slice(0, LIMITS.communityNameMax - suffix.length).trim()}${suffix}`;
}

/** SPEC §9: the email's local part and a random 4-digit number. */
export function paidSlugCandidate(email: string): string {
  const base = slugify(email.split("@")[0] ?? "").slice(0, 40) || "creator";
  return `${base}${randomInt(1000, 10000)}`;
}

type PlanDto = {
  plan: PlanId;
  trial_ends_at: string;
  community: { id: string; slug: string } | null;
};

const toDto = (row: typeof creatorPlans.$inferSelect, community: { id: string; slug: string } | null): PlanDto => ({
  plan: row.plan,
  trial_ends_at: row.trialEndsAt.toISOString(),
  community,
});

async function withCommunity(db: Queryable, row: typeof creatorPlans.$inferSelect): Promise<PlanDto> {
  const [c] = row.communityId
    ? await db
        .select({ id: communities.id, slug: communities.slug })
        .from(communities)
        .where(eq(communities.id, row.communityId))
    : [];
  return toDto(row, c ?? null);
}

/**
 * The simulated purchase (SPEC §4): records the plan with its 14-day trial on the creator's
 * account and creates their paid community, in one transaction. No card data reaches the server.
 * The same request_id again (a retried or doubled submit, even concurrent) answers what it made;
 * any other purchase by an account that has a plan is refused: the trial starts once per account.
 */
export async function startTrial({
  ctx,
  viewer,
  input,
  candidate = paidSlugCandidate,
}: {
  ctx: AppContext;
  viewer: Viewer;
  input: StartTrialInput;
  /** The slug generator (tests pass a colliding one). */
  candidate?: (email: string) => string;
}): Promise<PlanDto & { created: boolean; checkout_url: string | null }> {
  const made = await createTrialCommunity({ ctx, viewer, input, candidate });
  if (!made.created || !made.community) return { ...made, checkout_url: null };
  // The plan is bought through the payment provider: Stripe Checkout, or the simulated card form
  // the funnel already showed (confirmed through the event queue).
  const { checkout_url } = await startCreatorPlanCheckout(
    ctx,
    viewer,
    input.plan,
    `/community/${made.community.slug}/setup`,
  );
  return { ...made, checkout_url };
}

async function createTrialCommunity({
  ctx,
  viewer,
  input,
  candidate,
}: {
  ctx: AppContext;
  viewer: Viewer;
  input: StartTrialInput;
  candidate: (email: string) => string;
}): Promise<PlanDto & { created: boolean }> {
  const name = communityName(viewer, viewer.email.split("@")[0] ?? "");
  for (let attempt = 0; attempt < PAID_SLUG_TRIES; attempt++) {
    try {
      return await ctx.db.transaction(async (tx) => {
        // One purchase at a time per creator, so a doubled submit finds the first one's row.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('hearth:trial:' || ${viewer.id}))`);
        const [existing] = await tx.select().from(creatorPlans).where(eq(creatorPlans.userId, viewer.id));
        if (existing) {
          if (existing.requestId === input.request_id)
            return { ...(await withCommunity(tx, existing)), created: false };
          // A trial starts once per account: another purchase neither restarts nor extends it.
          throw new AppError("CONFLICT", MSG.trialAlreadyStarted);
        }
        const community = await insertOwnedCommunity(tx, viewer, {
          name,
          slug: candidate(viewer.email),
          type: "paid",
          price: DEFAULT_PAID_COMMUNITY_PRICE,
        });
        // Members join it through a checkout: one tier at the default monthly price.
        await applySinglePrice(
          tx,
          { id: community.id, currency: DEFAULT_CURRENCY, graceDays: DEFAULT_GRACE_DAYS },
          { type: "paid", price: DEFAULT_PAID_COMMUNITY_PRICE },
        );
        const values = {
          plan: input.plan,
          trialEndsAt: new Date(Date.now() + TRIAL_DAYS * DAY_MS),
          communityId: community.id,
          requestId: input.request_id,
        };
        const [row] = await tx
          .insert(creatorPlans)
          .values({ userId: viewer.id, ...values })
          .returning();
        return { ...toDto(row, community), created: true };
      });
    } catch (err) {
      // The slug (or a custom slug) is taken: another number.
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new AppError("CONFLICT", MSG.createCommunityError);
}

export async function findPlan({ ctx, viewer }: { ctx: AppContext; viewer: Viewer }): Promise<PlanDto | null> {
  const [row] = await ctx.db.select().from(creatorPlans).where(eq(creatorPlans.userId, viewer.id));
  return row ? withCommunity(ctx.db, row) : null;
}
