import { and, eq, inArray, notInArray } from "drizzle-orm";
import type { Queryable } from "#server/db/client";
import { postCategories } from "#server/db/schema/index";
import { requireCommunity, requirePermission } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import type { CommunityRequest, CommunityVisit } from "./communities.types";

// ---------------------------------------------------------------------------------------------
// Post categories

export async function findPostCategories({ ctx, viewer, idOrSlug }: CommunityVisit) {
  const { community } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer?.id });
  return listCategories(ctx.db, community.id);
}

const listCategories = (db: Queryable, communityId: string) =>
  db
    .select({
      id: postCategories.id,
      name: postCategories.name,
      emoji: postCategories.emoji,
      order_index: postCategories.orderIndex,
    })
    .from(postCategories)
    .where(eq(postCategories.communityId, communityId))
    .orderBy(postCategories.orderIndex, postCategories.name);

/**
 * Replaces the community's post categories with the list as given (its order is the order_index).
 * Kept ids are updated in place, so posts keep their category; missing ones are deleted.
 */
export async function replacePostCategories({
  ctx,
  viewer,
  idOrSlug,
  categories,
}: CommunityRequest<{ categories: { id?: string; name: string; emoji: string }[] }>) {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(role, "manage_settings");
  const names = new Set<string>();
  for (const c of categories) {
    const key = c.name.toLowerCase();
    if (names.has(key)) throw new AppError("VALIDATION", `The category "${c.name}" appears twice`);
    names.add(key);
  }
  const saved = await ctx.db.transaction(async (tx) => {
    const keep = categories.flatMap((c) => (c.id ? [c.id] : []));
    if (keep.length) {
      const owned = await tx
        .select({ id: postCategories.id })
        .from(postCategories)
        .where(and(eq(postCategories.communityId, community.id), inArray(postCategories.id, keep)));
      if (owned.length !== new Set(keep).size) throw new AppError("VALIDATION", "Unknown category");
    }
    await tx
      .delete(postCategories)
      .where(
        keep.length
          ? and(eq(postCategories.communityId, community.id), notInArray(postCategories.id, keep))
          : eq(postCategories.communityId, community.id),
      );
    for (const [index, c] of categories.entries()) {
      if (c.id) {
        await tx
          .update(postCategories)
          .set({ name: c.name, emoji: c.emoji, orderIndex: index })
          .where(and(eq(postCategories.id, c.id), eq(postCategories.communityId, community.id)));
      } else {
        await tx
          .insert(postCategories)
          .values({ communityId: community.id, name: c.name, emoji: c.emoji, orderIndex: index });
      }
    }
    return listCategories(tx, community.id);
  });
  ctx.publicCache.clear();
  return saved;
}
