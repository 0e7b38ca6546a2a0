import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { and, eq, inArray, sql } from "drizzle-orm";
import { levelName } from "#shared/levels";
import { LIMITS } from "#shared/limits";
import { DEFAULT_COMMUNITY_FLAGS, type CommunityFlags } from "#shared/notifications";
import { MSG } from "#shared/messages";
import type { NotificationSettingsUpdate, ProfileUpdate } from "#shared/validation.schemas";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { hasBlocked } from "#server/features/messages/index";
import { isUsernameTaken } from "#server/lib/auth";
import { AppError, notFound } from "#server/lib/errors";
import { receiveUpload, rowKeyOfUrl } from "#server/lib/uploads";
import { mediaFiles, user, userNotificationSettings, userProfiles } from "#server/db/schema/index";

type ProfileRow = typeof userProfiles.$inferSelect;

/** What a user may change of their own profile: API field → column. */
const EDITABLE_FIELDS = {
  username: "username",
  full_name: "fullName",
  headline: "headline",
  bio: "bio",
  location: "location",
  timezone: "timezone",
  language: "language",
  website_url: "websiteUrl",
  twitter_url: "twitterUrl",
  facebook_url: "facebookUrl",
  instagram_url: "instagramUrl",
  linkedin_url: "linkedinUrl",
  email_public: "emailPublic",
  allow_messages: "allowMessages",
  show_in_directory: "showInDirectory",
} as const satisfies Record<keyof ProfileUpdate, keyof ProfileRow>;

/**
 * What a user sees of their own profile: API field → column. The API names are the columns' SQL
 * names, so the same keys read the row as JSON (the session lookup's `to_jsonb`).
 */
const PROFILE_FIELDS = { id: "id", user_id: "userId", avatar_url: "avatarUrl", ...EDITABLE_FIELDS } as const;

type ProfileDto = { -readonly [K in keyof typeof PROFILE_FIELDS]: ProfileRow[(typeof PROFILE_FIELDS)[K]] } & {
  created_at: string;
};

export function toProfileDto(row: ProfileRow): ProfileDto {
  const fields = Object.fromEntries(Object.entries(PROFILE_FIELDS).map(([field, column]) => [field, row[column]]));
  return { ...fields, created_at: row.createdAt.toISOString() } as ProfileDto;
}

/** The signed-in user and profile, from what the session lookup already read (no query). */
export function findMe({ viewer }: { viewer: Viewer }) {
  const p = viewer.profile;
  if (!p) throw notFound("Profile not found");
  const fields = Object.fromEntries(Object.keys(PROFILE_FIELDS).map((field) => [field, p[field]]));
  return {
    user: {
      id: viewer.id,
      email: viewer.email,
      name: viewer.name,
      email_verified: viewer.emailVerified,
      two_factor_enabled: viewer.twoFactorEnabled,
    },
    profile: { ...fields, created_at: new Date(String(p.created_at)).toISOString() } as ProfileDto,
  };
}

export async function updateProfile({ ctx, userId, input }: { ctx: AppContext; userId: string; input: ProfileUpdate }) {
  const values: Partial<ProfileRow> = { updatedAt: new Date() };
  for (const [k, v] of Object.entries(input) as [keyof ProfileUpdate, never][]) {
    if (v !== undefined) (values as Record<string, unknown>)[EDITABLE_FIELDS[k]] = v;
  }
  const result = await ctx.db.transaction(async (tx) => {
    if (input.username !== undefined && (await isUsernameTaken(tx as never, input.username, userId))) {
      throw new AppError("CONFLICT", MSG.usernameTaken);
    }
    let updated: ProfileRow[];
    try {
      updated = await tx.update(userProfiles).set(values).where(eq(userProfiles.userId, userId)).returning();
    } catch (err) {
      if (
        (err as { cause?: { code?: string } }).cause?.code === "23505" ||
        (err as { code?: string }).code === "23505"
      ) {
        throw new AppError("CONFLICT", MSG.usernameTaken);
      }
      throw err;
    }
    if (input.full_name !== undefined) {
      await tx.update(user).set({ name: input.full_name, updatedAt: new Date() }).where(eq(user.id, userId));
    }
    return toProfileDto(updated[0]);
  });
  ctx.viewer.evictUser(userId);
  return result;
}

/**
 * The profile owner's level in each community the viewer shares with them (a member of both can
 * already read the other's level in its members list), highest first; none for an anonymous viewer
 * or on one's own profile only the viewer's communities. At most 20, in one statement.
 */
async function sharedLevels(db: Queryable, profileUserId: string, viewerId: string | undefined) {
  if (!viewerId) return [];
  const res = await db.execute<{
    community_id: string;
    community_name: string;
    slug: string;
    level: number;
    level_names: string[] | null;
  }>(sql`
    SELECT c.id AS community_id, c.name AS community_name, coalesce(c.custom_slug, c.slug) AS slug,
           coalesce(mp.level, 1)::int AS level, c.level_names
      FROM community_members them
      JOIN community_members me ON me.community_id = them.community_id AND me.user_id = ${viewerId}
      JOIN communities c ON c.id = them.community_id
      LEFT JOIN member_points mp ON mp.community_id = them.community_id AND mp.user_id = them.user_id
     WHERE them.user_id = ${profileUserId}
     ORDER BY coalesce(mp.points, 0) DESC, c.name, c.id
     LIMIT 20`);
  return res.rows.map((r) => ({
    community_id: r.community_id,
    community_name: r.community_name,
    slug: r.slug,
    level: r.level,
    level_name: levelName(r.level_names, r.level),
  }));
}

export async function findPublicProfile({
  ctx,
  username,
  viewer,
}: {
  ctx: AppContext;
  username: string;
  viewer?: Viewer | null;
}) {
  const [row] = await ctx.db
    .select({ profile: userProfiles, email: user.email })
    .from(userProfiles)
    .innerJoin(user, eq(user.id, userProfiles.userId))
    .where(sql`lower(${userProfiles.username}) = lower(${username})`);
  if (!row) throw notFound("Profile not found");
  const p = row.profile;
  return {
    // Whom 'Message' opens a conversation with (issue 22); member lists show it too.
    user_id: p.userId,
    username: p.username,
    full_name: p.fullName,
    avatar_url: p.avatarUrl,
    headline: p.headline,
    bio: p.bio,
    location: p.location,
    website_url: p.websiteUrl,
    twitter_url: p.twitterUrl,
    facebook_url: p.facebookUrl,
    instagram_url: p.instagramUrl,
    linkedin_url: p.linkedinUrl,
    email: p.emailPublic ? row.email : null,
    // Someone the person blocked sees messages off (issue 22): the same as their choosing "nobody".
    allow_messages: p.allowMessages && !(viewer && (await hasBlocked(ctx.db, p.userId, viewer.id))),
    joined_at: p.createdAt.toISOString(),
    levels: await sharedLevels(ctx.db, p.userId, viewer?.id),
  };
}

/** Re-encodes the avatar into the spec's variants, stores them, and retires the previous avatar (its files go with its row). */
export async function replaceAvatar({
  ctx,
  userId,
  file,
  name,
}: {
  ctx: AppContext;
  userId: string;
  file: Readable;
  name?: string;
}) {
  const stored = await receiveUpload(ctx, file, {
    base: `user-avatars/${userId}/avatar-${randomUUID()}`,
    ownerId: userId,
    communityId: null,
    purpose: "avatar",
    kinds: ["image"],
    maxBytes: LIMITS.avatarMaxBytes,
    tooLargeMessage: MSG.avatarTooLarge,
    notAllowedMessage: MSG.avatarNotImage,
    originalName: name,
  });
  // The profile shows the medium variant; the answer names it as the url, as the profile does.
  const url = stored.variants!.medium;
  await swapAvatar({ ctx, userId, next: { url, key: stored.key } });
  return { ...stored, url };
}

export async function removeAvatar({ ctx, userId }: { ctx: AppContext; userId: string }) {
  await swapAvatar({ ctx, userId, next: null });
}

/**
 * Points the profile at a new avatar (or none) and removes the row of the one it replaced in one
 * transaction; a trigger queues its files' removal, so a crash never leaves the profile pointing at
 * nothing nor files behind. The profile row is locked first, so overlapping replacements take
 * turns: each retires exactly the picture it found, never another upload still on its way.
 */
async function swapAvatar({
  ctx,
  userId,
  next,
}: {
  ctx: AppContext;
  userId: string;
  next: { url: string; key: string } | null;
}) {
  await ctx.db.transaction(async (tx) => {
    // The profile row first, as a profile edit takes it before the account row (no deadlock); the
    // pictures are read after the lock, so a replacement that went first is seen.
    await tx.execute(sql`SELECT 1 FROM user_profiles WHERE user_id = ${userId} FOR UPDATE`);
    const current = await tx.execute<{ image: string | null; avatar_url: string | null }>(sql`
      SELECT u.image, p.avatar_url
        FROM "user" u LEFT JOIN user_profiles p ON p.user_id = u.id
       WHERE u.id = ${userId}`);
    const replaced = [current.rows[0]?.image, current.rows[0]?.avatar_url]
      .map(rowKeyOfUrl)
      .filter((k): k is string => k !== null && k !== next?.key);
    const url = next?.url ?? null;
    await tx.update(userProfiles).set({ avatarUrl: url, updatedAt: new Date() }).where(eq(userProfiles.userId, userId));
    await tx.update(user).set({ image: url }).where(eq(user.id, userId));
    if (replaced.length > 0) {
      await tx
        .delete(mediaFiles)
        .where(
          and(eq(mediaFiles.ownerId, userId), eq(mediaFiles.purpose, "avatar"), inArray(mediaFiles.key, replaced)),
        );
    }
  });
  ctx.viewer.evictUser(userId);
}

type SettingsRow = typeof userNotificationSettings.$inferSelect;
type Flags = CommunityFlags;

/** The settings with the viewer's communities and each one's effective switches (defaults on). */
async function toSettingsDto(db: Queryable, s: SettingsRow) {
  const res = await db.execute<{ id: string; slug: string; name: string; icon_url: string | null }>(sql`
    SELECT c.id, c.slug, c.name, c.icon_url
      FROM community_members m JOIN communities c ON c.id = m.community_id
     WHERE m.user_id = ${s.userId}
     ORDER BY lower(c.name), c.id
     LIMIT 500`);
  return {
    global_enabled: s.globalEnabled,
    email_enabled: s.emailEnabled,
    in_app_enabled: s.inAppEnabled,
    push_enabled: s.pushEnabled,
    community_settings: s.communitySettings as Record<string, Flags>,
    communities: res.rows.map((c) => ({
      ...c,
      flags: { ...DEFAULT_COMMUNITY_FLAGS, ...s.communitySettings[c.id] },
    })),
  };
}

export async function findNotificationSettings({ ctx, userId }: { ctx: AppContext; userId: string }) {
  await ctx.db.insert(userNotificationSettings).values({ userId }).onConflictDoNothing();
  const [row] = await ctx.db.select().from(userNotificationSettings).where(eq(userNotificationSettings.userId, userId));
  return toSettingsDto(ctx.db, row);
}

export async function updateNotificationSettings({
  ctx,
  userId,
  input,
}: {
  ctx: AppContext;
  userId: string;
  input: NotificationSettingsUpdate;
}) {
  return ctx.db.transaction(async (tx) => {
    await tx.insert(userNotificationSettings).values({ userId }).onConflictDoNothing();
    const [current] = await tx
      .select()
      .from(userNotificationSettings)
      .where(eq(userNotificationSettings.userId, userId))
      .for("update");
    const set: Partial<SettingsRow> = { updatedAt: new Date() };
    if (input.global_enabled !== undefined) set.globalEnabled = input.global_enabled;
    if (input.email_enabled !== undefined) set.emailEnabled = input.email_enabled;
    if (input.in_app_enabled !== undefined) set.inAppEnabled = input.in_app_enabled;
    if (input.push_enabled !== undefined) set.pushEnabled = input.push_enabled;
    const ids = Object.keys(input.community_settings ?? {});
    if (ids.length > 0) {
      // Switches exist only for communities the user belongs to.
      const res = await tx.execute<{ community_id: string }>(sql`
        SELECT community_id FROM community_members
         WHERE user_id = ${userId} AND community_id = ANY(${sql.param(ids)}::uuid[])`);
      if (res.rows.length !== ids.length) throw new AppError("BAD_REQUEST", MSG.notAMember);
      const merged: Record<string, Flags> = { ...(current.communitySettings as Record<string, Flags>) };
      for (const id of ids)
        merged[id] = { ...DEFAULT_COMMUNITY_FLAGS, ...merged[id], ...input.community_settings?.[id] };
      set.communitySettings = merged;
    }
    const [row] = await tx
      .update(userNotificationSettings)
      .set(set)
      .where(eq(userNotificationSettings.userId, userId))
      .returning();
    return toSettingsDto(tx, row);
  });
}
