import type { PricingInput } from "#shared/payments";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import {
  communityNotFound,
  findCommunityRow,
  requireCommunity,
  requireCommunityPermission,
  type CommunityRow,
} from "#server/lib/community-access";
import { applyPricing, readTiers } from "#server/lib/tier-pricing";

// What an owner sells: the pricing routes' services (the stored rules: lib/tier-pricing.ts).

/** What anyone who may see the community is offered: its currency and tiers. */
export async function listTiers({
  ctx,
  viewer,
  idOrSlug,
  inviteCode,
}: {
  ctx: AppContext;
  viewer: Viewer | null;
  idOrSlug: string;
  /** A private community's invite: whoever holds it sees what joining costs (the invite page). */
  inviteCode?: string;
}) {
  const community = await findCommunityRow(ctx.db, idOrSlug);
  const invited =
    community !== null && inviteCode !== undefined && community.inviteEnabled && community.inviteCode === inviteCode;
  if (!invited) await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer?.id, privateAs: "not_found" });
  if (!community) throw communityNotFound();
  return { currency: community.currency, tiers: await readTiers(ctx.db, community.id, false) };
}

async function pricingOf(db: Queryable, community: Pick<CommunityRow, "id" | "currency" | "graceDays">) {
  const tiers = await readTiers(db, community.id, true);
  return {
    currency: community.currency,
    grace_days: community.graceDays,
    tiers: tiers.map((t) => ({ ...t, subscribers: t.subscribers ?? 0 })),
  };
}

/** The Pricing tab (owner, admin): tiers, prices, grace period and each tier's subscriber count. */
export async function getPricing({ ctx, viewer, idOrSlug }: { ctx: AppContext; viewer: Viewer; idOrSlug: string }) {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "manage_settings");
  return pricingOf(ctx.db, community);
}

/** Saves the Pricing tab (owner, admin) and answers it as read back. */
export async function savePricing({
  ctx,
  viewer,
  idOrSlug,
  input,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
  input: PricingInput;
}) {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "manage_settings");
  const answer = await ctx.db.transaction(async (tx) => {
    await applyPricing(tx, community.id, input);
    return pricingOf(tx, { id: community.id, currency: input.currency, graceDays: input.grace_days });
  });
  // The community card and page show the price: other processes hear of it from the database;
  // this one reads its own write at once (as updateCommunity does).
  ctx.publicCache.clear();
  return answer;
}
