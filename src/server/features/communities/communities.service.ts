import { eq, sql } from "drizzle-orm";
import { ONBOARDING_TASKS, slugCandidate, slugify } from "#shared/communities";
import { type UpdateCommunityInput } from "#shared/communities.schemas";
import { MSG } from "#shared/messages";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { communities } from "#server/db/schema/index";
import {
  completeOnboardingTask,
  insertOwnedCommunity,
  isUniqueViolation,
  newInviteCode,
  requireCommunity,
  requirePermission,
} from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { publishMembershipChange } from "#server/lib/realtime";
import { applySinglePrice } from "#server/lib/tier-pricing";
import { escapeLike } from "./communities.directory";
import type { CommunityRequest } from "./communities.types";
import { findCommunityView } from "./communities.view";

// Creating a community and changing its settings. Reads: communities.view.ts (the page, stats),
// communities.directory.ts; post categories and pictures have their own modules.

export const ALL_TASKS = ONBOARDING_TASKS.map((t) => t.id);

// ---------------------------------------------------------------------------------------------
// Creating

/** A free slug for the name: name, name-1, name-2… avoiding every slug and custom slug in use. */
async function freeSlug(db: Queryable, name: string): Promise<string> {
  const base = slugify(name) || "community";
  // Creations whose names make the same slug take turns (after the name locks, always in that
  // order), so each finds the others' slugs instead of colliding with them.
  await db.execute(sql`SELECT pg_advisory_xact_lock(7243203, hashtext(${base}))`);
  const res = await db.execute<{ s: string }>(sql`
    SELECT slug AS s FROM communities WHERE slug = ${base} OR slug LIKE ${`${escapeLike(base)}-%`}
    UNION
    SELECT custom_slug FROM communities WHERE custom_slug = ${base} OR custom_slug LIKE ${`${escapeLike(base)}-%`}`);
  const taken = new Set(res.rows.map((r) => r.s));
  for (let attempt = 0; ; attempt++) {
    const candidate = slugCandidate(base, attempt);
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Refuses a name that is, or looks like, another community's name: the same confusables skeleton as
 * written or in lower case (name_key, name_key_lower, kept by a trigger; migration 0014). Locks on
 * both keys, taken in one order, make creations and renames to look-alike names take turns, so the
 * second sees the first. A name that looks like the community's own current name is always allowed
 * (a rename changing case, a settings save beside a twin made before this rule).
 */
async function refuseConfusableName(tx: Queryable, name: string, exceptId?: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(7243201, hashtext(community_name_key(${name})))`);
  await tx.execute(sql`SELECT pg_advisory_xact_lock(7243202, hashtext(community_name_key_lower(${name})))`);
  const res = await tx.execute(sql`
    WITH k AS (SELECT community_name_key(${name}) AS key, community_name_key_lower(${name}) AS lower)
    SELECT 1 FROM communities c, k
     WHERE (c.name_key = k.key OR c.name_key_lower = k.lower)
       ${
         exceptId
           ? sql`AND NOT EXISTS (SELECT 1 FROM communities s WHERE s.id = ${exceptId}
                                   AND (s.name_key = k.key OR s.name_key_lower = k.lower))`
           : sql``
       }
     LIMIT 1`);
  if (res.rows.length > 0) throw new AppError("CONFLICT", MSG.communityNameConfusable);
}

/** Any signed-in user may create a community and becomes its owner (SPEC §6). */
export async function createCommunity({ ctx, viewer, name }: { ctx: AppContext; viewer: Viewer; name: string }) {
  // Two creations racing for the same slug: the loser picks the next free one.
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await ctx.db.transaction(async (tx) => {
        await refuseConfusableName(tx, name);
        return insertOwnedCommunity(tx, viewer, { name, slug: await freeSlug(tx, name) });
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new AppError("CONFLICT", MSG.createCommunityFailed);
}

// ---------------------------------------------------------------------------------------------
// Settings

/** Owner and admin edit the community (SPEC §6 edit_community, manage_settings). */
export async function updateCommunity({
  ctx,
  viewer,
  idOrSlug,
  input,
}: CommunityRequest<{ input: UpdateCommunityInput }>) {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(role, "manage_settings");
  // The one-price form (type, price) prices the community's single tier, as the Pricing tab would.
  const pricing =
    input.type !== undefined || input.price !== undefined
      ? { type: input.type ?? community.type, price: input.price ?? Number(community.price) }
      : null;
  if (pricing?.type === "paid" && pricing.price <= 0) {
    throw new AppError("VALIDATION", "A paid community needs a monthly price above 0");
  }
  const set: Partial<typeof communities.$inferInsert> = { updatedAt: new Date() };
  if (input.name !== undefined) set.name = input.name;
  if (input.description !== undefined) set.description = input.description;
  if (input.tagline !== undefined) set.tagline = input.tagline;
  if (input.category !== undefined) set.category = input.category;
  if (input.visibility !== undefined) set.visibility = input.visibility;
  // A private community is never open to everyone: it becomes invite only (requests stay requests).
  if (input.visibility === "private" && community.joinPolicy === "open") set.joinPolicy = "invite";
  if (input.show_classroom !== undefined) set.showClassroom = input.show_classroom;
  if (input.show_calendar !== undefined) set.showCalendar = input.show_calendar;
  if (input.show_map !== undefined) set.showMap = input.show_map;
  if (input.show_leaderboards !== undefined) set.showLeaderboards = input.show_leaderboards;
  if (input.show_about !== undefined) set.showAbout = input.show_about;
  if (input.moderation_enabled !== undefined) set.moderationEnabled = input.moderation_enabled;
  if (input.invite_enabled !== undefined) set.inviteEnabled = input.invite_enabled;
  if (input.rules !== undefined) set.rules = input.rules;
  await ctx.db.transaction(async (tx) => {
    if (input.name !== undefined) await refuseConfusableName(tx, input.name, community.id);
    await tx.update(communities).set(set).where(eq(communities.id, community.id));
    if (pricing) await applySinglePrice(tx, community, pricing);
    if (input.description !== undefined && input.description.trim() !== "") {
      await completeOnboardingTask(tx, community.id, "description", ALL_TASKS);
    }
  });
  // Other processes hear of it from the database; this one reads its own write at once.
  ctx.publicCache.clear();
  return findCommunityView({ ctx, idOrSlug: community.id, viewer });
}

/** A fresh invite code; the old link stops working at once. */
export async function regenerateInvite({ ctx, viewer, idOrSlug }: CommunityRequest) {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(role, "invite_members");
  const code = newInviteCode();
  await ctx.db
    .update(communities)
    .set({ inviteCode: code, updatedAt: new Date() })
    .where(eq(communities.id, community.id));
  return { invite_code: code, invite_enabled: community.inviteEnabled };
}

/** The owner deletes the community with everything in it; its stored files go afterwards. */
export async function deleteCommunity({ ctx, viewer, idOrSlug }: CommunityRequest) {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(role, "delete_community");
  // Its media rows go by cascade; triggers queue the removal of their files and of its folder.
  await ctx.db.transaction(async (tx) => {
    // Every member's list of communities loses it, announced at commit. The row lock holds back
    // joins (their insert waits on it) until the community is gone, so no member is missed.
    await tx.execute(sql`SELECT 1 FROM communities WHERE id = ${community.id} FOR UPDATE`);
    const members = await tx.execute<{ user_id: string }>(
      sql`SELECT user_id FROM community_members WHERE community_id = ${community.id}`,
    );
    await publishMembershipChange(
      tx,
      members.rows.map((m) => m.user_id),
    );
    await tx.delete(communities).where(eq(communities.id, community.id));
  });
  ctx.publicCache.clear();
}
