import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { and, eq, inArray } from "drizzle-orm";
import { COMMUNITY_LIMITS } from "#shared/communities";
import { MSG } from "#shared/messages";
import type { AppContext } from "#server/context";
import { communities, mediaFiles } from "#server/db/schema/index";
import { completeOnboardingTask, requireCommunity, requirePermission } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { sanitizeSvg } from "#server/lib/svg";
import { receiveUpload, rowKeyOfUrl } from "#server/lib/uploads";
import { ALL_TASKS } from "./communities.service";
import type { CommunityRequest } from "./communities.types";

// ---------------------------------------------------------------------------------------------
// Icon and cover

/**
 * Points the community at a new icon or cover, recording the file (`insert`) unless the upload
 * module already did, and retires the row of the one it replaced in the same transaction (a
 * trigger queues its files' removal). The community row is locked first, so overlapping
 * replacements take turns: each retires exactly the picture it found, never another upload still
 * on its way.
 */
async function swapCommunityImage({
  ctx,
  communityId,
  purpose,
  key,
  set,
  insert,
}: {
  ctx: AppContext;
  communityId: string;
  purpose: "icon" | "cover";
  key: string;
  set: Partial<typeof communities.$inferInsert>;
  insert?: typeof mediaFiles.$inferInsert;
}) {
  await ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        icon: communities.iconUrl,
        logo: communities.logoUrl,
        cover: communities.coverUrl,
        image: communities.imageUrl,
      })
      .from(communities)
      .where(eq(communities.id, communityId))
      .for("update");
    const urls = purpose === "icon" ? [current?.icon, current?.logo] : [current?.cover, current?.image];
    const replaced = urls.map(rowKeyOfUrl).filter((k): k is string => k !== null && k !== key);
    if (insert) await tx.insert(mediaFiles).values(insert);
    await tx
      .update(communities)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(communities.id, communityId));
    if (replaced.length > 0) {
      await tx
        .delete(mediaFiles)
        .where(
          and(
            eq(mediaFiles.communityId, communityId),
            eq(mediaFiles.purpose, purpose),
            inArray(mediaFiles.key, replaced),
          ),
        );
    }
    await completeOnboardingTask(tx, communityId, "customization", ALL_TASKS);
  });
  ctx.publicCache.clear();
}

/** The icon is an SVG (SPEC §5), sanitized to an allow-list before it is stored. */
export async function replaceIcon({ ctx, viewer, idOrSlug, file }: CommunityRequest<{ file: Buffer }>) {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(role, "edit_community");
  if (file.length > COMMUNITY_LIMITS.iconMaxBytes) {
    throw new AppError("PAYLOAD_TOO_LARGE", MSG.fileTooLarge(COMMUNITY_LIMITS.iconMaxBytes / 1024 / 1024));
  }
  const clean = sanitizeSvg(file, MSG.iconMustBeSvg);
  const key = `community-assets/${community.id}/icon-${randomUUID()}.svg`;
  await ctx.storage.put(key, clean, "image/svg+xml");
  const url = ctx.storage.publicUrl(key);
  const swapped = swapCommunityImage({
    ctx,
    communityId: community.id,
    purpose: "icon",
    key,
    set: { iconUrl: url, logoUrl: url },
    insert: {
      key,
      ownerId: viewer.id,
      communityId: community.id,
      purpose: "icon",
      contentType: "image/svg+xml",
      size: clean.length,
    },
  });
  // Nothing records the stored file if the swap fails: it goes at once.
  await swapped.catch(async (err: unknown) => {
    await ctx.storage.delete(key).catch(() => undefined);
    throw err;
  });
  return { url, path: key, key, size: clean.length, type: "image/svg+xml" };
}

/** The cover: JPEG, PNG, WebP or GIF up to 10 MB, re-encoded into the spec's variants. */
export async function replaceCover({
  ctx,
  viewer,
  idOrSlug,
  file,
  name,
}: CommunityRequest<{ file: Readable; name?: string }>) {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(role, "edit_community");
  const stored = await receiveUpload(ctx, file, {
    base: `community-assets/${community.id}/cover-${randomUUID()}`,
    ownerId: viewer.id,
    communityId: community.id,
    purpose: "cover",
    kinds: ["image"],
    maxBytes: COMMUNITY_LIMITS.coverMaxBytes,
    tooLargeMessage: MSG.fileTooLarge(COMMUNITY_LIMITS.coverMaxBytes / 1024 / 1024),
    notAllowedMessage: MSG.coverMustBeImage,
    originalName: name,
  });
  await swapCommunityImage({
    ctx,
    communityId: community.id,
    purpose: "cover",
    key: stored.key,
    set: { coverUrl: stored.variants!.original, imageUrl: stored.variants!.medium },
  });
  return stored;
}
