import { eq, sql } from "drizzle-orm";
import type { ConnectStatus, PaymentProviderName } from "#shared/payments";
import { connectStatusOf, PAYOUT_MESSAGES, type PayoutMode } from "#shared/payouts";
import type { AppContext, Viewer } from "#server/context";
import { payoutAccounts } from "#server/db/schema/index";
import { requireCommunityPermission, type CommunityRow } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { refreshAccount } from "./events";
import { paymentProvider } from "./provider-registry";

/*
 * Payouts (issue 18, docs/payments.md): in `instance` mode every payment goes to this Hearth's own
 * Stripe account; with Stripe Connect each community's owner connects an account of their own
 * (made once per community, under a lock on the community row), finishes Stripe's onboarding, and
 * checkout sends each payment there less the instance's fee (checkout.service.ts connectTarget).
 * The account's flags change only from Stripe's word: account.updated, or 'Refresh status'.
 */

export type Payouts = {
  mode: PayoutMode;
  provider: PaymentProviderName;
  status: ConnectStatus;
  fee_percent: number;
  account: { charges_enabled: boolean; payouts_enabled: boolean; details_submitted: boolean } | null;
};

async function accountOf(ctx: AppContext, communityId: string, provider: PaymentProviderName) {
  const [row] = await ctx.db.select().from(payoutAccounts).where(eq(payoutAccounts.communityId, communityId));
  return row && row.provider === provider ? row : null;
}

async function payoutsOf(ctx: AppContext, community: CommunityRow): Promise<Payouts> {
  const settings = ctx.config.payments;
  if (!settings.connect)
    return { mode: "instance", provider: settings.provider, status: "active", fee_percent: 0, account: null };
  const row = await accountOf(ctx, community.id, settings.provider);
  const account = row
    ? {
        charges_enabled: row.chargesEnabled,
        payouts_enabled: row.payoutsEnabled,
        details_submitted: row.detailsSubmitted,
      }
    : null;
  return {
    mode: "connect",
    provider: settings.provider,
    status: connectStatusOf(account),
    fee_percent: settings.platformFeePercent,
    account,
  };
}

/** The Payouts tab (owner): where payments go and, with Connect, the account's status. */
export async function getPayouts(ctx: AppContext, viewer: Viewer, idOrSlug: string): Promise<Payouts> {
  return payoutsOf(ctx, await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "view_revenue"));
}

/**
 * 'Connect Stripe' / 'Continue onboarding' (owner, Connect only): the community's account, made
 * once (concurrent calls wait on the community row and find the first one's), and a fresh
 * onboarding link to it that comes back to the Payouts tab.
 */
export async function connectPayouts(ctx: AppContext, viewer: Viewer, idOrSlug: string): Promise<{ url: string }> {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "view_revenue");
  if (!ctx.config.payments.connect) throw new AppError("CONFLICT", PAYOUT_MESSAGES.connectOff);
  const provider = await paymentProvider(ctx);
  const accountId = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT 1 FROM communities WHERE id = ${community.id} FOR UPDATE`);
    const [existing] = await tx.select().from(payoutAccounts).where(eq(payoutAccounts.communityId, community.id));
    if (existing && existing.provider === provider.name) return existing.providerAccountId;
    const made = await provider.createAccount(viewer.email);
    const fields = {
      provider: provider.name,
      providerAccountId: made.id,
      connectedBy: viewer.id,
      chargesEnabled: made.chargesEnabled,
      payoutsEnabled: made.payoutsEnabled,
      detailsSubmitted: made.detailsSubmitted,
      updatedAt: new Date(),
    };
    await tx
      .insert(payoutAccounts)
      .values({ communityId: community.id, ...fields })
      .onConflictDoUpdate({ target: payoutAccounts.communityId, set: fields });
    return made.id;
  });
  const back = `${ctx.config.publicUrl}/community/${community.slug}?settings=payouts`;
  return { url: await provider.accountLink(accountId, back, back) };
}

/** 'Refresh status' (owner): the account re-read from the provider, then the tab's answer. */
export async function refreshPayouts(ctx: AppContext, viewer: Viewer, idOrSlug: string): Promise<Payouts> {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "view_revenue");
  if (ctx.config.payments.connect) {
    const provider = await paymentProvider(ctx);
    const row = await accountOf(ctx, community.id, provider.name);
    if (row) await refreshAccount(ctx, provider, row.providerAccountId);
  }
  return payoutsOf(ctx, community);
}
