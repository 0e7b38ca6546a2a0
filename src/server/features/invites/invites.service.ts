import { and, eq, sql } from "drizzle-orm";
import { ONBOARDING_INVITES_NEEDED, ONBOARDING_TASKS } from "#shared/communities";
import { MSG } from "#shared/messages";
import { grantUrl } from "#server/lib/media-grant";
import type { AppContext, Viewer } from "#server/context";
import { communities, communityMembers } from "#server/db/schema/index";
import { addMember, completeOnboardingTask, roleIn, type CommunityRow } from "#server/lib/community-access";
import { requireFreeEntry } from "#server/lib/entitlement-access";
import { AppError } from "#server/lib/errors";

/** Codes are 22 base64url characters; anything else is not looked up at all. */
const CODE_RE = /^[A-Za-z0-9_-]{8,64}$/;

async function communityByCode(ctx: AppContext, code: string): Promise<CommunityRow> {
  if (!CODE_RE.test(code)) throw new AppError("NOT_FOUND", MSG.invalidInviteCode);
  const [row] = await ctx.db.select().from(communities).where(eq(communities.inviteCode, code)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", MSG.invalidInviteCode);
  if (!row.inviteEnabled) throw new AppError("FORBIDDEN", MSG.invitesDisabled);
  return row;
}

/** The invite view (SPEC §3): what the invite page shows before accepting. */
export async function findInvite({ ctx, viewer, code }: { ctx: AppContext; viewer: Viewer | null; code: string }) {
  const c = await communityByCode(ctx, code);
  const role = await roleIn(ctx.db, c.id, viewer?.id);
  // A private community's pictures are for members; the invitee sees them through expiring grants.
  const picture = (url: string | null) => (c.visibility === "private" ? grantUrl(ctx.config.authSecret, url) : url);
  return {
    community: {
      id: c.id,
      slug: c.slug,
      name: c.name,
      description: c.description,
      image_url: picture(c.imageUrl ?? c.coverUrl),
      icon_url: picture(c.iconUrl),
      cover_url: picture(c.coverUrl),
      member_count: c.memberCount,
      post_count: c.postCount,
      type: c.type,
      price: Number(c.price),
      currency: c.currency,
      visibility: c.visibility,
    },
    viewer_role: role,
  };
}

/** Accepting joins the community as a member, private ones included; three invite joins complete that onboarding task. */
export async function acceptInvite({ ctx, viewer, code }: { ctx: AppContext; viewer: Viewer; code: string }) {
  let community: CommunityRow;
  try {
    community = await communityByCode(ctx, code);
  } catch (err) {
    if (err instanceof AppError && err.code === "NOT_FOUND")
      throw new AppError("NOT_FOUND", MSG.invalidOrExpiredInvite);
    throw err;
  }
  // An invite to a paid community leads to its checkout (with the invite code), not in for free.
  if (!(await roleIn(ctx.db, community.id, viewer.id))) await requireFreeEntry(ctx.db, community, viewer.id);
  const added = await ctx.db.transaction(async (tx) => {
    const joined = await addMember(tx, { community, userId: viewer.id, viaInvite: true });
    if (!joined) return false;
    const [{ n }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(communityMembers)
      .where(and(eq(communityMembers.communityId, community.id), eq(communityMembers.joinedViaInvite, true)));
    if (n >= ONBOARDING_INVITES_NEEDED) {
      await completeOnboardingTask(
        tx,
        community.id,
        "invite",
        ONBOARDING_TASKS.map((t) => t.id),
      );
    }
    return true;
  });
  if (!added) throw new AppError("CONFLICT", MSG.alreadyMember);
  return { success: true, community: { id: community.id, slug: community.slug } };
}
