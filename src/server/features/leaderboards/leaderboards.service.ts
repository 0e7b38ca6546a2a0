import { sql } from "drizzle-orm";
import { LEVEL_COUNT, levelName } from "#shared/levels";
import type { AppContext, Viewer } from "#server/context";
import { memberLevel } from "#server/features/communities/index";
import { checkCommunityAccess, findCommunityCached, memberRole, memberScope } from "#server/lib/community-access";
import { onFeedChange, PublicCache } from "#server/lib/public-cache";

export const LEADERBOARD_PERIODS = { "7d": 7, "30d": 30, all: null } as const;
export type LeaderboardPeriod = keyof typeof LEADERBOARD_PERIODS;

type Row = {
  user_id: string;
  username: string;
  full_name: string;
  avatar_url: string | null;
  points: number;
  level: number;
  /** Null until counted (the viewer outside the all-time top list). */
  rank: number | null;
};

export type LadderRung = { level: number; name: string; threshold: number; members: number; share: number };

/**
 * Members ranked by points in this community. 'all' reads member_points (kept exact by the
 * triggers of migration 0023: likes received, plus lessons and events when the owner counts them);
 * 7d and 30d count the likes received in the period (likes given in the period). Only current
 * members rank; ties share a rank; every entry shows the member's current level. The viewer's own
 * rank comes with it even when outside the top list, with their level and progress, and the
 * ladder: how many current members stand at each level.
 */
export async function findLeaderboard({
  ctx,
  viewer,
  idOrSlug,
  period,
  limit,
}: {
  ctx: AppContext;
  viewer: Viewer | null;
  idOrSlug: string;
  period: LeaderboardPeriod;
  limit: number;
}) {
  const community = await findCommunityCached(ctx, idOrSlug);
  const viewerId = viewer?.id ?? "";
  // The viewer's role and all-time points and level: from the member cache, which the database
  // empties for this member in every process when any of them changes (migration 0028).
  const [viewerRole, held] = viewer
    ? await Promise.all([memberRole(ctx, community.id, viewer.id), viewerPoints(ctx, community.id, viewer.id)])
    : [null, null];
  const { role } = checkCommunityAccess(community, viewerRole);
  const mine = held && viewer ? { ...held, ...profileOf(viewer) } : undefined;
  const [ranked, standing] = await Promise.all([
    period === "all" ? topAllTime(ctx, community.id, limit) : inPeriod(ctx, community.id, viewerId, period, limit),
    findStanding(ctx, community.id),
  ]);
  let rows: Row[] = ranked;
  // All time, outside the top list: the viewer's own row, ranked by the members with more points.
  if (period === "all" && role && mine && mine.points !== null && mine.points > 0) {
    if (!rows.some((r) => r.user_id === viewerId)) {
      const points = Number(mine.points);
      rows = [...rows, { ...mine, user_id: viewerId, points, level: Number(mine.level), rank: null }];
    }
  }
  // Outside the top list, the viewer's all-time rank: the members with more points, plus one.
  rows = rows.map((r) => (r.rank === null ? { ...r, rank: 1 + countAbove(standing.points, r.points) } : r));
  const ladder = toLadder(standing.levels, community.levelThresholds, community.levelNames);
  const strip = (r: Row) => ({
    user_id: r.user_id,
    username: r.username,
    full_name: r.full_name,
    avatar_url: r.avatar_url,
    points: r.points,
    level: r.level,
    rank: r.rank ?? 0,
  });
  const own = rows.find((r) => r.user_id === viewerId);
  const points = role && viewer ? Number(mine?.points ?? 0) : null;
  return {
    period,
    items: rows
      .filter((r) => (r.rank ?? Infinity) <= limit)
      .slice(0, limit)
      .map(strip),
    viewer: own ? strip(own) : null,
    ladder,
    viewer_level: points === null ? null : memberLevel(points, community.levelThresholds),
  };
}

/** A viewer's all-time points and level in the community (null: no points yet). */
type ViewerPoints = { points: number | null; level: number | null };

/**
 * The viewer's points and level, read once (a prepared statement) and then kept in the member cache
 * until the database announces a change to them or to the membership (migration 0028).
 */
function viewerPoints(ctx: AppContext, communityId: string, userId: string): Promise<ViewerPoints> {
  return ctx.memberCache.getOrCompute(`${memberScope(communityId, userId)}:points`, async () => {
    const res = await ctx.pool.query<ViewerPoints>({
      name: "leaderboard_viewer_points",
      text: "SELECT points, level FROM member_points WHERE community_id = $1 AND user_id = $2",
      values: [communityId, userId],
    });
    return res.rows[0] ?? { points: null, level: null };
  });
}

/** The viewer's name and avatar as their session carries them (its cache drops on any profile change). */
function profileOf(viewer: Viewer): Pick<Row, "username" | "full_name" | "avatar_url"> {
  const p = viewer.profile ?? {};
  return {
    username: typeof p.username === "string" ? p.username : "",
    full_name: typeof p.full_name === "string" ? p.full_name : "",
    avatar_url: typeof p.avatar_url === "string" ? p.avatar_url : null,
  };
}

const PROFILE = sql`coalesce(u.username, '') AS username, coalesce(u.full_name, '') AS full_name, u.avatar_url`;

/** How long an all-time top list is kept: a moment, as counters elsewhere (a level change drops it at once). */
export const TOP_TTL_MS = 2_000;

/**
 * All time, from member_points: the first `limit` current members by points (the rank index), the
 * same for every viewer, so kept per process under the community's scope on the feed channel for
 * TOP_TTL_MS (a level change anywhere in the community drops it in every process).
 */
function topAllTime(ctx: AppContext, communityId: string, limit: number): Promise<Row[]> {
  return boardCache(ctx).getOrCompute(
    `${communityId}:top:${limit}`,
    async () => {
      const res = await ctx.db.execute<Row>(sql`
      WITH top AS (
        SELECT mp.user_id, mp.points, mp.level
          FROM member_points mp
         WHERE mp.community_id = ${communityId} AND mp.points > 0
           AND EXISTS (SELECT 1 FROM community_members m WHERE m.community_id = mp.community_id AND m.user_id = mp.user_id)
         ORDER BY mp.points DESC NULLS LAST, mp.user_id
         LIMIT ${limit}
      )
      SELECT t.user_id, ${PROFILE}, t.points, t.level::int AS level, rank() OVER (ORDER BY t.points DESC)::int AS rank
        FROM top t LEFT JOIN user_profiles u ON u.user_id = t.user_id
       ORDER BY rank, u.username`);
      return res.rows;
    },
    TOP_TTL_MS,
  );
}

/** 7 or 30 days: likes received in the period, counted from the likes themselves. */
async function inPeriod(
  ctx: AppContext,
  communityId: string,
  viewerId: string,
  period: Exclude<LeaderboardPeriod, "all">,
  limit: number,
) {
  const since = sql`now() - make_interval(days => ${LEADERBOARD_PERIODS[period]})`;
  const res = await ctx.db.execute<Row & { is_viewer: boolean }>(sql`
    WITH received AS (
      SELECT p.author_id AS user_id, count(*)::int AS points
        FROM post_likes l JOIN posts p ON p.id = l.post_id
       WHERE p.community_id = ${communityId} AND p.deleted_at IS NULL AND l.created_at >= ${since}
         AND l.user_id <> p.author_id
       GROUP BY p.author_id
      UNION ALL
      SELECT c.author_id, count(*)::int
        FROM comment_likes l JOIN comments c ON c.id = l.comment_id JOIN posts p ON p.id = c.post_id
       WHERE p.community_id = ${communityId} AND c.deleted_at IS NULL AND p.deleted_at IS NULL
         AND l.created_at >= ${since} AND l.user_id <> c.author_id
       GROUP BY c.author_id
    ), totals AS (
      SELECT r.user_id, sum(r.points)::int AS points
        FROM received r
        JOIN community_members m ON m.community_id = ${communityId} AND m.user_id = r.user_id
       GROUP BY r.user_id
    ), ranked AS (
      SELECT t.user_id, t.points, rank() OVER (ORDER BY t.points DESC)::int AS rank FROM totals t
    )
    SELECT r.user_id, ${PROFILE}, r.points, coalesce(mp.level, 1)::int AS level, r.rank,
           r.user_id = ${viewerId} AS is_viewer
      FROM ranked r
      LEFT JOIN user_profiles u ON u.user_id = r.user_id
      LEFT JOIN member_points mp ON mp.community_id = ${communityId} AND mp.user_id = r.user_id
     WHERE r.rank <= ${limit} OR r.user_id = ${viewerId}
     ORDER BY r.rank, u.username
     LIMIT ${limit + 1}`);
  return res.rows;
}

type Standing = {
  /** Every current member's points, highest first (no member_points row: 0). */
  points: Int32Array;
  /** Current members at each level (index 0: level 1). */
  levels: number[];
};

/** How long a community's standing is kept (a level change drops it at once). */
export const STANDING_TTL_MS = 30_000;
const boardCaches = new WeakMap<AppContext, PublicCache>();

/**
 * The leaderboards' per-process cache (top lists and standings), keyed `${communityId}:…` on the
 * feed channel: a level change anywhere in the community drops its entries in every process.
 */
function boardCache(ctx: AppContext): PublicCache {
  let cache = boardCaches.get(ctx);
  if (!cache) {
    const board = new PublicCache(ctx.listener, { channel: null, scoped: true, maxEntries: 700 });
    // Levels and community-wide changes; a post's change (migration 0040) moves no one's points.
    onFeedChange(ctx.listener, (change) => {
      if (!change) board.clear();
      else if (!change.post) board.clearScope(change.community);
    });
    boardCaches.set(ctx, (cache = board));
  }
  return cache;
}

/**
 * The community's standing: every current member's points (for the viewer's rank) and how many
 * stand at each level (the ladder). One pass over the members (a big community's takes a while),
 * kept per process under the community's scope on the feed channel: a level change anywhere in the
 * community drops it (the member_points trigger announces it there);
 * other points, joins and leaves show within STANDING_TTL_MS (a rank outside the top list may be
 * that much behind; the top list is at most TOP_TTL_MS old and the viewer's own points come from the
 * member cache, dropped when they change).
 */
function findStanding(ctx: AppContext, communityId: string): Promise<Standing> {
  return boardCache(ctx).getOrCompute(
    `${communityId}:standing`,
    async () => {
      const res = await ctx.db.execute<{ points: number[] | null; levels: number[] | null }>(sql`
      SELECT array_agg(coalesce(mp.points, 0) ORDER BY coalesce(mp.points, 0) DESC) AS points,
             array_agg(coalesce(mp.level, 1)) AS levels
        FROM community_members m
        LEFT JOIN member_points mp ON mp.community_id = m.community_id AND mp.user_id = m.user_id
       WHERE m.community_id = ${communityId}`);
      const row = res.rows[0];
      const levels = Array.from({ length: LEVEL_COUNT }, () => 0);
      for (const level of row?.levels ?? []) levels[Math.min(Math.max(Number(level), 1), LEVEL_COUNT) - 1]++;
      return { points: Int32Array.from(row?.points ?? []), levels };
    },
    STANDING_TTL_MS,
  );
}

/** How many of `sorted` (descending) are above `points`. */
function countAbove(sorted: Int32Array, points: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] > points) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The ladder: per level its name, threshold, members and whole-percent share of current members. */
function toLadder(levels: number[], thresholds: readonly number[], names: readonly string[] | null): LadderRung[] {
  const total = levels.reduce((n, m) => n + m, 0);
  return Array.from({ length: LEVEL_COUNT }, (_, i) => {
    const members = levels[i] ?? 0;
    return {
      level: i + 1,
      name: levelName(names, i + 1),
      threshold: thresholds[i] ?? 0,
      members,
      share: total === 0 ? 0 : Math.round((members * 100) / total),
    };
  });
}
