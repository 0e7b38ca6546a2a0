import { sql } from "drizzle-orm";
import { COMMUNITY_LIMITS } from "#shared/communities";
import { levelName, levelOf, LEVEL_COUNT, pointsToNextLevel } from "#shared/levels";
import type { JoinRequestStatus } from "#shared/membership";
import { can, mayLeaveCommunity, permissionsOf, type CommunityRole } from "#shared/roles";
import { requireCommunity, requirePermission, type CommunityRow } from "#server/lib/community-access";
import type { CommunityRequest, CommunityVisit } from "./communities.types";

// ---------------------------------------------------------------------------------------------
// The community page

export type CommunityView = Awaited<ReturnType<typeof findCommunityView>>;

/**
 * Everything the community page shows, in one query: the community, its creator, post categories,
 * and the real online and admin figures. Members' last activity is refreshed at most once a minute.
 */
export async function findCommunityView({ ctx, idOrSlug, viewer }: CommunityVisit) {
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
    points: number | null;
    join_request: {
      id: string;
      status: JoinRequestStatus;
      created_at: string;
      decided_at: string | null;
      reason: string | null;
      retry_after: string | null;
    } | null;
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
         FROM post_categories c WHERE c.community_id = ${community.id}) AS post_categories,
      (SELECT mp.points FROM member_points mp
         WHERE mp.community_id = ${community.id} AND mp.user_id = ${viewer?.id ?? null}) AS points,
      -- The viewer's latest request: pending, or decided (the landing says so), or withdrawn.
      (SELECT json_build_object('id', r.id, 'status', r.status, 'created_at', r.created_at,
                                'decided_at', r.decided_at, 'reason', r.reason,
                                'retry_after', CASE WHEN r.status = 'declined'
                                  AND r.decided_at + make_interval(days => ${community.requestCooldownDays}) > now()
                                  THEN r.decided_at + make_interval(days => ${community.requestCooldownDays}) END)
         FROM join_requests r
        WHERE r.community_id = ${community.id} AND r.user_id = ${viewer?.id ?? null}
        ORDER BY r.created_at DESC LIMIT 1) AS join_request`);
  const { online_count, admin_count, owner_count, creator, post_categories, points, join_request } = extra.rows[0];
  const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);
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
      level: role ? memberLevel(points ?? 0, community.levelThresholds) : null,
      join_request: join_request
        ? {
            ...join_request,
            created_at: iso(join_request.created_at)!,
            decided_at: iso(join_request.decided_at),
            retry_after: iso(join_request.retry_after),
          }
        : null,
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
    currency: c.currency,
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
    join_policy: c.joinPolicy,
    request_questions: c.requestQuestions,
    request_ask_email: c.requestAskEmail,
    auto_approve: c.autoApprove,
    listed: c.listed,
    level_names: Array.from({ length: LEVEL_COUNT }, (_, i) => levelName(c.levelNames, i + 1)),
    level_thresholds: c.levelThresholds,
    min_post_level: c.minPostLevel,
  };
}

/** A member's standing from their points and the community's thresholds. */
export const memberLevel = (points: number, thresholds: readonly number[]) => ({
  points,
  level: levelOf(points, thresholds),
  next: pointsToNextLevel(points, thresholds),
});

// ---------------------------------------------------------------------------------------------
// Dashboard and metrics

export async function findCommunityStats({ ctx, viewer, idOrSlug }: CommunityRequest) {
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
