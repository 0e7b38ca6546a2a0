import { randomUUID } from "node:crypto";
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import { COMMUNITY_LIMITS, ONBOARDING_TASKS, slugCandidate, slugify } from "#shared/communities";
import { type UpdateCommunityInput } from "#shared/communities.schemas";
import { MSG } from "#shared/messages";
import { can, mayLeaveCommunity, permissionsOf, type CommunityRole } from "#shared/roles";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { communities, mediaFiles, postCategories } from "#server/db/schema/index";
import {
  completeOnboardingTask,
  insertOwnedCommunity,
  isUniqueViolation,
  newInviteCode,
  requireCommunity,
  requirePermission,
  type CommunityRow,
} from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { publishMembershipChange } from "#server/lib/realtime";
import { receiveUpload, rowKeyOfUrl } from "#server/lib/uploads";
import type { Readable } from "node:stream";
import { sanitizeSvg } from "#server/lib/svg";

const ALL_TASKS = ONBOARDING_TASKS.map((t) => t.id);

/** 128 random bits: invite codes cannot be guessed, only shared. */

// ---------------------------------------------------------------------------------------------
// Directory

type Cursor = { m: number; id: string };
const encodeCursor = (c: Cursor) => Buffer.from(`${c.m}:${c.id}`).toString("base64url");
function decodeCursor(raw: string | undefined): Cursor | null {
  if (!raw) return null;
  const [m, id] = Buffer.from(raw, "base64url").toString("utf8").split(":");
  const count = Number(m);
  if (!Number.isInteger(count) || !/^[0-9a-f-]{36}$/.test(id ?? "")) throw new AppError("VALIDATION", "Invalid cursor");
  return { m: count, id };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export type DirectoryCard = {
  id: string;
  slug: string;
  name: string;
  description: string;
  short_description: string;
  tagline: string;
  category: string | null;
  type: "free" | "paid";
  price: number;
  member_count: number;
  icon_url: string | null;
  cover_url: string | null;
  is_featured: boolean;
};

/**
 * Public communities by member count (keyset paged on member_count, id), optionally within a
 * category and matching a keyword in the name or description. Private communities never appear.
 */
export async function findDirectory({
  ctx,
  category,
  q,
  cursor,
  limit,
}: {
  ctx: AppContext;
  category?: string;
  q?: string;
  cursor?: string;
  limit: number;
}): Promise<{ items: DirectoryCard[]; next_cursor: string | null }> {
  const after = decodeCursor(cursor);
  const term = q?.trim();
  const conditions = [sql`visibility = 'public'`];
  if (category) conditions.push(sql`category = ${category}`);
  if (term) conditions.push(sql`(name || ' ' || description) ILIKE ${`%${escapeLike(term)}%`}`);
  const columns = sql`id, slug, name, description, short_description, tagline, category, type,
    price::float8 AS price, member_count, icon_url, cover_url, is_featured`;
  const where = sql.join(conditions, sql` AND `);
  const page = (extra: ReturnType<typeof sql>) => sql`
    SELECT ${columns} FROM communities WHERE ${where} AND ${extra} ORDER BY member_count DESC, id LIMIT ${limit + 1}`;
  // After a cursor, two index ranges: the rest of the cursor's member count, then the smaller
  // counts. One range with "count <= m AND (count < m OR id > x)" would read and discard every row
  // of that count before the cursor (thousands on a deep page of a big directory).
  const res = await ctx.db.execute<DirectoryCard>(
    after
      ? sql`SELECT * FROM ((${page(sql`member_count = ${after.m} AND id > ${after.id}`)})
              UNION ALL (${page(sql`member_count < ${after.m}`)})) AS p
             ORDER BY member_count DESC, id LIMIT ${limit + 1}`
      : sql`SELECT ${columns} FROM communities WHERE ${where} ORDER BY member_count DESC, id LIMIT ${limit + 1}`,
  );
  const rows = res.rows;
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items,
    next_cursor: rows.length > limit && last ? encodeCursor({ m: last.member_count, id: last.id }) : null,
  };
}

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
// The community page

export type CommunityView = Awaited<ReturnType<typeof findCommunityView>>;

/**
 * Everything the community page shows, in one query: the community, its creator, post categories,
 * and the real online and admin figures. Members' last activity is refreshed at most once a minute.
 */
export async function findCommunityView({
  ctx,
  idOrSlug,
  viewer,
}: {
  ctx: AppContext;
  idOrSlug: string;
  viewer: Viewer | null;
}) {
  const { community, role } = await requireCommunity({
    db: ctx.db,
    idOrSlug,
    userId: viewer?.id,
    privateAs: "gate",
  });
  if (role && viewer) {
    await ctx.db.execute(sql`
      UPDATE community_members SET last_active_at = now()
       WHERE community_id = ${community.id} AND user_id = ${viewer.id}
         AND (last_active_at IS NULL OR last_active_at < now() - interval '1 minute')`);
  }
  const extra = await ctx.db.execute<{
    online_count: number;
    admin_count: number;
    owner_count: number;
    creator: { user_id: string; username: string; full_name: string; avatar_url: string | null } | null;
    post_categories: { id: string; name: string; emoji: string; order_index: number }[];
  }>(sql`
    SELECT
      (SELECT count(*)::int FROM community_members m
         WHERE m.community_id = ${community.id}
           AND m.last_active_at > now() - make_interval(mins => ${COMMUNITY_LIMITS.onlineWindowMinutes})) AS online_count,
      (SELECT count(*)::int FROM community_members m
         WHERE m.community_id = ${community.id} AND m.role IN ('owner', 'admin')) AS admin_count,
      (SELECT count(*)::int FROM community_members m
         WHERE m.community_id = ${community.id} AND m.role = 'owner') AS owner_count,
      (SELECT json_build_object('user_id', p.user_id, 'username', p.username, 'full_name', p.full_name,
                                'avatar_url', p.avatar_url)
         FROM user_profiles p WHERE p.user_id = ${community.createdBy}) AS creator,
      (SELECT coalesce(json_agg(json_build_object('id', c.id, 'name', c.name, 'emoji', c.emoji,
                                                  'order_index', c.order_index) ORDER BY c.order_index, c.name), '[]')
         FROM post_categories c WHERE c.community_id = ${community.id}) AS post_categories`);
  const { online_count, admin_count, owner_count, creator, post_categories } = extra.rows[0];
  return {
    ...toCommunityDto(community, role),
    online_count,
    admin_count,
    creator,
    post_categories,
    viewer: {
      role,
      permissions: permissionsOf(role),
      signed_in: Boolean(viewer),
      may_leave: mayLeaveCommunity(role, owner_count),
    },
  };
}

export function toCommunityDto(c: CommunityRow, role: CommunityRole | null) {
  return {
    id: c.id,
    name: c.name,
    slug: c.slug,
    custom_slug: c.customSlug,
    description: c.description,
    short_description: c.shortDescription,
    tagline: c.tagline,
    category: c.category,
    type: c.type,
    price: Number(c.price),
    member_count: c.memberCount,
    post_count: c.postCount,
    icon_url: c.iconUrl,
    logo_url: c.logoUrl,
    cover_url: c.coverUrl,
    image_url: c.imageUrl,
    brand_name: c.brandName,
    is_featured: c.isFeatured,
    creator_name: c.creatorName,
    creator_image: c.creatorImage,
    website: c.website,
    visibility: c.visibility,
    created_by: c.createdBy,
    created_at: c.createdAt.toISOString(),
    show_classroom: c.showClassroom,
    show_calendar: c.showCalendar,
    show_map: c.showMap,
    show_leaderboards: c.showLeaderboards,
    show_about: c.showAbout,
    moderation_enabled: c.moderationEnabled,
    rules: c.rules,
    onboarding_completed: c.onboardingCompleted,
    onboarding_tasks_completed: c.onboardingTasksCompleted,
    invite_enabled: c.inviteEnabled,
    // The invite link is for those who may invite.
    invite_code: can(role, "invite_members") ? c.inviteCode : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Settings

/** Owner and admin edit the community (SPEC §6 edit_community, manage_settings). */
export async function updateCommunity({
  ctx,
  viewer,
  idOrSlug,
  input,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
  input: UpdateCommunityInput;
}) {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(role, "manage_settings");
  const nextType = input.type ?? community.type;
  const nextPrice = input.price ?? Number(community.price);
  if (nextType === "paid" && nextPrice <= 0) {
    throw new AppError("VALIDATION", "A paid community needs a monthly price above 0");
  }
  const set: Partial<typeof communities.$inferInsert> = { updatedAt: new Date() };
  if (input.name !== undefined) set.name = input.name;
  if (input.description !== undefined) set.description = input.description;
  if (input.tagline !== undefined) set.tagline = input.tagline;
  if (input.category !== undefined) set.category = input.category;
  if (input.visibility !== undefined) set.visibility = input.visibility;
  if (input.type !== undefined) set.type = input.type;
  if (input.price !== undefined || input.type === "free") set.price = nextType === "free" ? 0 : nextPrice;
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
    if (input.description !== undefined && input.description.trim() !== "") {
      await completeOnboardingTask(tx, community.id, "description", ALL_TASKS);
    }
  });
  // Other processes hear of it from the database; this one reads its own write at once.
  ctx.publicCache.clear();
  return findCommunityView({ ctx, idOrSlug: community.id, viewer });
}

/** A fresh invite code; the old link stops working at once. */
export async function regenerateInvite({
  ctx,
  viewer,
  idOrSlug,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
}) {
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
export async function deleteCommunity({
  ctx,
  viewer,
  idOrSlug,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
}) {
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

// ---------------------------------------------------------------------------------------------
// Post categories

export async function findPostCategories({
  ctx,
  viewer,
  idOrSlug,
}: {
  ctx: AppContext;
  viewer: Viewer | null;
  idOrSlug: string;
}) {
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
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
  categories: { id?: string; name: string; emoji: string }[];
}) {
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
export async function replaceIcon({
  ctx,
  viewer,
  idOrSlug,
  file,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
  file: Buffer;
}) {
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
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
  file: Readable;
  name?: string;
}) {
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

// ---------------------------------------------------------------------------------------------
// Dashboard and metrics

export async function findCommunityStats({
  ctx,
  viewer,
  idOrSlug,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
}) {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(role, "view_analytics");
  const res = await ctx.db.execute<{
    total_members: number;
    total_posts: number;
    pending_posts: number;
    active_today: number;
    online_now: number;
    new_members_7d: number;
    new_members_30d: number;
    joined_via_invite: number;
    posts_7d: number;
    roles: Record<string, number> | null;
    joins_by_day: { day: string; count: number }[] | null;
  }>(sql`
    SELECT
      c.member_count AS total_members,
      (SELECT count(*)::int FROM posts p WHERE p.community_id = c.id AND p.deleted_at IS NULL AND p.is_approved) AS total_posts,
      (SELECT count(*)::int FROM posts p WHERE p.community_id = c.id AND p.deleted_at IS NULL AND NOT p.is_approved) AS pending_posts,
      (SELECT count(*)::int FROM community_members m WHERE m.community_id = c.id AND m.last_active_at > now() - interval '24 hours') AS active_today,
      (SELECT count(*)::int FROM community_members m WHERE m.community_id = c.id
          AND m.last_active_at > now() - make_interval(mins => ${COMMUNITY_LIMITS.onlineWindowMinutes})) AS online_now,
      (SELECT count(*)::int FROM community_members m WHERE m.community_id = c.id AND m.joined_at > now() - interval '7 days') AS new_members_7d,
      (SELECT count(*)::int FROM community_members m WHERE m.community_id = c.id AND m.joined_at > now() - interval '30 days') AS new_members_30d,
      (SELECT count(*)::int FROM community_members m WHERE m.community_id = c.id AND m.joined_via_invite) AS joined_via_invite,
      (SELECT count(*)::int FROM posts p WHERE p.community_id = c.id AND p.deleted_at IS NULL AND p.created_at > now() - interval '7 days') AS posts_7d,
      (SELECT json_object_agg(role, n) FROM (SELECT role, count(*)::int AS n FROM community_members m
          WHERE m.community_id = c.id GROUP BY role) r) AS roles,
      (SELECT json_agg(json_build_object('day', d.day, 'count', d.n) ORDER BY d.day) FROM (
          SELECT to_char(g.day, 'YYYY-MM-DD') AS day,
                 (SELECT count(*)::int FROM community_members m WHERE m.community_id = c.id
                     AND m.joined_at >= g.day AND m.joined_at < g.day + interval '1 day') AS n
            FROM generate_series(date_trunc('day', now()) - interval '29 days', date_trunc('day', now()), interval '1 day') AS g(day)
        ) d) AS joins_by_day
    FROM communities c WHERE c.id = ${community.id}`);
  const row = res.rows[0];
  return {
    ...row,
    roles: { owner: 0, admin: 0, moderator: 0, member: 0, guest: 0, ...(row.roles ?? {}) },
    joins_by_day: row.joins_by_day ?? [],
  };
}
