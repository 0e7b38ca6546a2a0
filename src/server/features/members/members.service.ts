import { and, eq, sql } from "drizzle-orm";
import { MSG } from "#shared/messages";
import { isRole, mayLeaveCommunity, mayRemoveMember, roleChangeRefusal, type CommunityRole } from "#shared/roles";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { communityBans, communityMembers, user } from "#server/db/schema/index";
import { addMember, forgetMembers, requireCommunity, requirePermission } from "#server/lib/community-access";
import { requireFreeEntry } from "#server/lib/entitlement-access";
import { requireJoinAllowed } from "#server/features/membership/index";
import { stopRenewals } from "#server/features/payments/index";
import { AppError } from "#server/lib/errors";
import { notificationVisible } from "#server/lib/notifications";
import { publishMembershipChange } from "#server/lib/realtime";

// ---------------------------------------------------------------------------------------------
// Joining and leaving

/**
 * Join a public community (a private one only through an invite). A paid community without a free
 * tier is joined through a checkout: the membership comes with the payment's confirmation.
 */
export async function joinCommunity({ ctx, viewer, idOrSlug }: { ctx: AppContext; viewer: Viewer; idOrSlug: string }) {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id, privateAs: "gate" });
  if (role) return { role, joined: false, slug: community.slug };
  // By request: only once approved; invite only: never (an invite joins through its own route).
  await requireJoinAllowed(ctx.db, community, viewer.id);
  await requireFreeEntry(ctx.db, community, viewer.id);
  const joined = await ctx.db.transaction((tx) => addMember(tx, { community, userId: viewer.id }));
  forgetMembers(ctx, community.id, [viewer.id]);
  return { role: "member" as CommunityRole, joined, slug: community.slug };
}

/** Leaving clears the role; the only owner may not leave. */
export async function leaveCommunity({ ctx, viewer, idOrSlug }: { ctx: AppContext; viewer: Viewer; idOrSlug: string }) {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  if (!role) throw new AppError("BAD_REQUEST", MSG.notAMember);
  await ctx.db.transaction(async (tx) => {
    if (role === "owner") {
      // Lock the owner rows so two owners leaving at once cannot leave the community with none.
      const owners = await tx.execute<{ user_id: string }>(sql`
        SELECT user_id FROM community_members
         WHERE community_id = ${community.id} AND role = 'owner' FOR UPDATE`);
      if (!mayLeaveCommunity(role, owners.rows.length)) throw new AppError("CONFLICT", MSG.onlyOwnerCannotLeave);
    }
    await tx
      .delete(communityMembers)
      .where(and(eq(communityMembers.communityId, community.id), eq(communityMembers.userId, viewer.id)));
    await publishMembershipChange(tx, [viewer.id]);
  });
  forgetMembers(ctx, community.id, [viewer.id]);
  await stopRenewals(ctx, viewer.id, community.id);
  return { role: null };
}

// ---------------------------------------------------------------------------------------------
// The viewer's own communities (the header's switcher, "Your communities" on /)

export type MyCommunity = {
  id: string;
  slug: string;
  custom_slug: string | null;
  name: string;
  icon_url: string | null;
  visibility: "public" | "private";
  role: CommunityRole;
  unread_count: number;
};

/**
 * Every community the viewer is a member of now (left, removed and banned ones are gone with their
 * member row), private ones included: only their own rows are read, so nothing of a community they
 * are not in can show. Those they manage (owner, admin) come first, then the rest, each by name.
 * `unread_count` is their unread in-app notifications about that community that they may still see,
 * counted in the same query from the unread index.
 */
export async function findMyCommunities({ ctx, viewer }: { ctx: AppContext; viewer: Viewer }) {
  const res = await ctx.db.execute<MyCommunity>(sql`
    WITH unread AS (
      SELECT n.community_id, count(*)::int AS n FROM notifications n
       WHERE n.user_id = ${viewer.id} AND n.is_read = false AND n.in_app AND n.community_id IS NOT NULL
         AND ${notificationVisible}
       GROUP BY n.community_id)
    SELECT c.id, c.slug, c.custom_slug, c.name, c.icon_url, c.visibility, m.role, coalesce(u.n, 0) AS unread_count
      FROM community_members m
      JOIN communities c ON c.id = m.community_id
      LEFT JOIN unread u ON u.community_id = c.id
     WHERE m.user_id = ${viewer.id}
     ORDER BY (m.role IN ('owner', 'admin')) DESC, lower(c.name), c.id
     LIMIT ${MY_COMMUNITIES_LIMIT}`);
  return { items: res.rows };
}

/** A person in more communities than this sees the first ones (the directory finds the rest). */
export const MY_COMMUNITIES_LIMIT = 200;

// ---------------------------------------------------------------------------------------------
// The members table

export type MemberRow = {
  user_id: string;
  username: string;
  full_name: string;
  avatar_url: string | null;
  headline: string;
  role: CommunityRole;
  joined_at: string;
  last_active_at: string | null;
  level: number;
};

type MemberCursor = { t: string; u: string };

/** Members, oldest first (keyset on joined_at, user_id); only members may look (SPEC §6). */
export async function findMembers({
  ctx,
  viewer,
  idOrSlug,
  q,
  role,
  cursor,
  limit,
}: {
  ctx: AppContext;
  viewer: Viewer | null;
  idOrSlug: string;
  q?: string;
  role?: CommunityRole;
  cursor?: string;
  limit: number;
}) {
  const access = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer?.id });
  if (!access.role) throw new AppError("FORBIDDEN", MSG.membersHidden);
  let after: MemberCursor | null = null;
  if (cursor) {
    try {
      after = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as MemberCursor;
      if (typeof after.t !== "string" || typeof after.u !== "string" || Number.isNaN(Date.parse(after.t))) throw 0;
    } catch {
      throw new AppError("VALIDATION", "Invalid cursor");
    }
  }
  const term = q?.trim().toLowerCase();
  const conditions = [sql`m.community_id = ${access.community.id}`];
  if (role) conditions.push(sql`m.role = ${role}`);
  if (term) {
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql`(p.username LIKE ${like} OR lower(p.full_name) LIKE ${like})`);
  }
  if (after) conditions.push(sql`(m.joined_at, m.user_id) > (${after.t}::timestamptz, ${after.u})`);
  const res = await ctx.db.execute<MemberRow & { joined_at_raw: string }>(sql`
    SELECT m.user_id, coalesce(p.username, '') AS username, coalesce(p.full_name, '') AS full_name,
           p.avatar_url, coalesce(p.headline, '') AS headline, m.role,
           to_char(m.joined_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS joined_at_raw,
           m.joined_at, m.last_active_at, coalesce(mp.level, 1)::int AS level
      FROM community_members m
      LEFT JOIN user_profiles p ON p.user_id = m.user_id
      LEFT JOIN member_points mp ON mp.community_id = m.community_id AND mp.user_id = m.user_id
     WHERE ${sql.join(conditions, sql` AND `)}
     ORDER BY m.joined_at, m.user_id
     LIMIT ${limit + 1}`);
  const rows = res.rows.slice(0, limit);
  const last = rows.at(-1);
  return {
    items: rows.map((r) => ({
      user_id: r.user_id,
      username: r.username,
      full_name: r.full_name,
      avatar_url: r.avatar_url,
      headline: r.headline,
      role: r.role,
      joined_at: new Date(r.joined_at).toISOString(),
      last_active_at: r.last_active_at ? new Date(r.last_active_at).toISOString() : null,
      level: r.level,
    })),
    next_cursor:
      res.rows.length > limit && last
        ? Buffer.from(JSON.stringify({ t: last.joined_at_raw, u: last.user_id })).toString("base64url")
        : null,
    viewer_role: access.role,
  };
}

async function lockedRoles(tx: Queryable, communityId: string, actorId: string, targetId: string) {
  const res = await tx.execute<{ user_id: string; role: string }>(sql`
    SELECT user_id, role FROM community_members
     WHERE community_id = ${communityId} AND user_id IN (${actorId}, ${targetId})
     ORDER BY user_id FOR UPDATE`);
  const find = (id: string) => {
    const role = res.rows.find((r) => r.user_id === id)?.role;
    return isRole(role) ? role : null;
  };
  return { actorRole: find(actorId), targetRole: find(targetId) };
}

const REFUSAL_MESSAGES = {
  insufficient: MSG.insufficientPermissions,
  self: MSG.cannotChangeOwnRole,
  not_below: MSG.cannotChangeRoleOfPeer,
  owner_only: MSG.onlyOwnersAssignOwner,
  guest: MSG.cannotAssignGuest,
} as const;

/** Role changes (SPEC §6), checked against both rows locked, so concurrent changes cannot slip past. */
export async function changeRole({
  ctx,
  viewer,
  idOrSlug,
  userId,
  role,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
  userId: string;
  role: CommunityRole;
}) {
  const access = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(access.role, "change_roles");
  const changed = await ctx.db.transaction(async (tx) => {
    const { actorRole, targetRole } = await lockedRoles(tx, access.community.id, viewer.id, userId);
    if (!targetRole) throw new AppError("NOT_FOUND", MSG.notAMember);
    const refusal = roleChangeRefusal({ actorRole, targetRole, newRole: role, isSelf: userId === viewer.id });
    if (refusal) throw new AppError("FORBIDDEN", REFUSAL_MESSAGES[refusal]);
    await tx
      .update(communityMembers)
      .set({ role })
      .where(and(eq(communityMembers.communityId, access.community.id), eq(communityMembers.userId, userId)));
    // Their switcher marks the communities they manage.
    await publishMembershipChange(tx, [userId]);
    return { user_id: userId, role };
  });
  forgetMembers(ctx, access.community.id, [userId]);
  return changed;
}

/**
 * Removes a member ranked below the actor; with `ban`, they also cannot join again. A ban also
 * reaches a user who is not a member (one who left before it, or never joined): they are kept
 * out all the same, so leaving first does not escape it.
 */
export async function removeMember({
  ctx,
  viewer,
  idOrSlug,
  userId,
  ban,
  reason,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
  userId: string;
  ban: boolean;
  reason?: string;
}) {
  const access = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(access.role, ban ? "ban_users" : "remove_members");
  await ctx.db.transaction(async (tx) => {
    const { actorRole, targetRole } = await lockedRoles(tx, access.community.id, viewer.id, userId);
    if (!targetRole) {
      if (!ban) throw new AppError("NOT_FOUND", MSG.notAMember);
      const [target] = await tx.select({ id: user.id }).from(user).where(eq(user.id, userId));
      if (!target) throw new AppError("NOT_FOUND", MSG.userNotFound);
    } else if (!mayRemoveMember(actorRole, targetRole, userId === viewer.id)) {
      throw new AppError("FORBIDDEN", MSG.insufficientPermissions);
    }
    await tx
      .delete(communityMembers)
      .where(and(eq(communityMembers.communityId, access.community.id), eq(communityMembers.userId, userId)));
    if (targetRole) await publishMembershipChange(tx, [userId]);
    if (ban) {
      await tx
        .insert(communityBans)
        .values({ communityId: access.community.id, userId, bannedBy: viewer.id, reason: reason ?? "" })
        .onConflictDoNothing();
    }
  });
  forgetMembers(ctx, access.community.id, [userId]);
  await stopRenewals(ctx, userId, access.community.id);
}

export async function findBans({ ctx, viewer, idOrSlug }: { ctx: AppContext; viewer: Viewer; idOrSlug: string }) {
  const access = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(access.role, "ban_users");
  const res = await ctx.db.execute<{
    user_id: string;
    username: string;
    full_name: string;
    avatar_url: string | null;
    reason: string;
    created_at: string;
  }>(sql`
    SELECT b.user_id, coalesce(p.username, '') AS username, coalesce(p.full_name, '') AS full_name, p.avatar_url,
           b.reason, b.created_at
      FROM community_bans b LEFT JOIN user_profiles p ON p.user_id = b.user_id
     WHERE b.community_id = ${access.community.id}
     ORDER BY b.created_at DESC LIMIT 200`);
  return res.rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
}

export async function liftBan({
  ctx,
  viewer,
  idOrSlug,
  userId,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
  userId: string;
}) {
  const access = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(access.role, "ban_users");
  await ctx.db
    .delete(communityBans)
    .where(and(eq(communityBans.communityId, access.community.id), eq(communityBans.userId, userId)));
}
