import { sql } from "drizzle-orm";
import type { AppContext, Viewer } from "#server/context";
import { requireCommunity } from "#server/lib/community-access";

export const LEADERBOARD_PERIODS = { "7d": 7, "30d": 30, all: null } as const;
export type LeaderboardPeriod = keyof typeof LEADERBOARD_PERIODS;

type Row = {
  user_id: string;
  username: string;
  full_name: string;
  avatar_url: string | null;
  points: number;
  rank: number;
};

/**
 * Members ranked by likes received on their posts and comments in this community within the
 * period (likes given in the period). Only current members rank; ties share a rank. The viewer's
 * own rank comes with it even when outside the top list.
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
  const { community } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer?.id });
  const days = LEADERBOARD_PERIODS[period];
  const since = days === null ? sql`'-infinity'::timestamptz` : sql`now() - make_interval(days => ${days})`;
  const res = await ctx.db.execute<Row & { is_viewer: boolean }>(sql`
    WITH received AS (
      SELECT p.author_id AS user_id, count(*)::int AS points
        FROM post_likes l JOIN posts p ON p.id = l.post_id
       WHERE p.community_id = ${community.id} AND p.deleted_at IS NULL AND l.created_at >= ${since}
         AND l.user_id <> p.author_id
       GROUP BY p.author_id
      UNION ALL
      SELECT c.author_id, count(*)::int
        FROM comment_likes l JOIN comments c ON c.id = l.comment_id JOIN posts p ON p.id = c.post_id
       WHERE p.community_id = ${community.id} AND c.deleted_at IS NULL AND p.deleted_at IS NULL
         AND l.created_at >= ${since} AND l.user_id <> c.author_id
       GROUP BY c.author_id
    ), totals AS (
      SELECT r.user_id, sum(r.points)::int AS points
        FROM received r
        JOIN community_members m ON m.community_id = ${community.id} AND m.user_id = r.user_id
       GROUP BY r.user_id
    ), ranked AS (
      SELECT t.user_id, t.points, rank() OVER (ORDER BY t.points DESC)::int AS rank FROM totals t
    )
    SELECT r.user_id, coalesce(u.username, '') AS username, coalesce(u.full_name, '') AS full_name, u.avatar_url,
           r.points, r.rank, r.user_id = ${viewer?.id ?? ""} AS is_viewer
      FROM ranked r LEFT JOIN user_profiles u ON u.user_id = r.user_id
     WHERE r.rank <= ${limit} OR r.user_id = ${viewer?.id ?? ""}
     ORDER BY r.rank, u.username
     LIMIT ${limit + 1}`);
  const strip = ({ is_viewer: _v, ...r }: Row & { is_viewer: boolean }) => r;
  const mine = res.rows.find((r) => r.is_viewer);
  return {
    period,
    items: res.rows
      .filter((r) => r.rank <= limit)
      .slice(0, limit)
      .map(strip),
    viewer: mine ? strip(mine) : null,
  };
}
