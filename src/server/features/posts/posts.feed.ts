import { sql } from "drizzle-orm";
import { LIMITS } from "#shared/limits";
import { isRole, visibleTo, type CommunityRole } from "#shared/roles";
import type { AppContext, Viewer } from "#server/context";
import { checkCommunityAccess, findCommunityCached, memberRole } from "#server/lib/community-access";
import { postCommunityKey, postPageKey } from "#server/lib/public-cache";
import {
  decodeCursor,
  findPost,
  keysetPage,
  postColumnsText,
  sharedPostColumns,
  toPostDto,
  type PostRow,
} from "./posts.queries";

// The hot reads, answered as pre-serialized JSON and cached: the feed and a post's anonymous page.

/**
 * The viewer's role in $1 for user $2, with their own posts that others do not see ($3: a category or null) for the
 * first page: waiting for approval, or hidden pending review after reports (issue 22).
 */
const FEED_ROLE_PENDING_SQL = `
  SELECT m.role,
         (SELECT json_agg(x) FROM (
            SELECT ${postColumnsText("$2")} FROM posts p
             WHERE p.community_id = $1 AND p.author_id = $2 AND (NOT p.is_approved OR p.hidden_at IS NOT NULL)
               AND p.deleted_at IS NULL
               AND ($3::uuid IS NULL OR p.category_id = $3)
             ORDER BY p.created_at DESC LIMIT 20) x) AS pending
    FROM (SELECT 1) AS one
    LEFT JOIN community_members m ON m.community_id = $1 AND m.user_id = $2`;

/**
 * Viewer $1's like, save and vote, and the current counters, of the posts $2. LATERAL with LIMIT
 * (which PostgreSQL does not flatten into a join) keeps each lookup a primary-key probe per post:
 * as EXISTS the planner may hash all of the viewer's likes, thousands of rows for an active member.
 */
const FEED_VIEWER_STATE_SQL = `
  SELECT p.id, p.likes_count, p.comments_count, p.share_count, p.poll_data,
         l.hit IS NOT NULL AS liked, s.hit IS NOT NULL AS saved, v.option_index AS vote_index
    FROM unnest($2::uuid[]) AS i(id) JOIN posts p ON p.id = i.id
    LEFT JOIN LATERAL (SELECT 1 AS hit FROM post_likes WHERE post_id = p.id AND user_id = $1 LIMIT 1) l ON true
    LEFT JOIN LATERAL (SELECT 1 AS hit FROM saved_posts WHERE post_id = p.id AND user_id = $1 LIMIT 1) s ON true
    LEFT JOIN LATERAL (SELECT option_index FROM poll_votes WHERE post_id = p.id AND user_id = $1 LIMIT 1) v ON true`;

type SharedPage = { rows: PostRow[]; next: string | null };
type ViewerState = Pick<
  PostRow,
  "id" | "liked" | "saved" | "vote_index" | "likes_count" | "comments_count" | "share_count" | "poll_data"
>;

/**
 * The feed: pinned posts first (first page only, at most five), then newest first, 50 a page by
 * keyset; approved posts the viewer's role may see, not hidden pending review, and on the first
 * page the viewer's own pending and hidden ones. The shared part of a page (by community, category, cursor and visibility) comes
 * from the feed cache; a signed-in viewer adds one query for their role and pending posts and one
 * for their likes, saves and votes and the current counters of the page's posts. Anonymous pages
 * may show counters up to two seconds old. Answers the serialized page (built field by field by
 * toPostDto, so nothing beyond the schema can slip in).
 */
export async function findFeed({
  ctx,
  viewer,
  idOrSlug,
  categoryId,
  cursor,
}: {
  ctx: AppContext;
  viewer: Viewer | null;
  idOrSlug: string;
  categoryId?: string;
  cursor?: string;
}) {
  const community = await findCommunityCached(ctx, idOrSlug);
  const after = decodeCursor(cursor);
  const limit = LIMITS.feedPageSize;
  let role: CommunityRole | null = null;
  let pending: PostRow[] = [];
  if (viewer) {
    if (after) {
      // A later page: the role from the member cache (community-access.ts), no statement.
      role = await memberRole(ctx, community.id, viewer.id);
    } else {
      // A prepared statement: it runs on every signed-in first page, so PostgreSQL plans it once.
      const res = await ctx.pool.query<{ role: string | null; pending: PostRow[] | null }>({
        name: "feed_role_pending",
        text: FEED_ROLE_PENDING_SQL,
        values: [community.id, viewer.id, categoryId ?? null],
      });
      role = isRole(res.rows[0]?.role) ? (res.rows[0].role as CommunityRole) : null;
      pending = res.rows[0]?.pending ?? [];
    }
  }
  checkCommunityAccess(community, role);
  const visibility = visibleTo(role);
  const key = `${community.id}:${categoryId ?? ""}:${visibility.join(",")}:${cursor ?? ""}`;
  // The shared part of the page, made once for every request that asks while it is made.
  const sharedPage = () =>
    ctx.feedCache.getOrCompute<SharedPage>(key, async () => {
      const conditions = [
        sql`p.community_id = ${community.id}`,
        sql`p.deleted_at IS NULL`,
        sql`p.is_approved`,
        sql`p.hidden_at IS NULL`,
        sql`p.visibility = ANY(${sql.param(visibility)}::text[])`,
      ];
      if (categoryId) conditions.push(sql`p.category_id = ${categoryId}`);
      if (after) {
        conditions.push(sql`NOT p.is_pinned AND (p.created_at, p.id) < (${after.t}::timestamptz, ${after.id}::uuid)`);
      }
      const res = await ctx.db.execute<PostRow>(sql`
        SELECT ${sharedPostColumns}
          FROM posts p
         WHERE ${sql.join(conditions, sql` AND `)}
         ORDER BY p.is_pinned DESC, p.created_at DESC, p.id DESC
         LIMIT ${limit + 1}`);
      return keysetPage(res.rows, limit, (r) => ({ t: r.created_at_raw, id: r.id }));
    });
  // Anonymous visitors all get the same bytes, likewise made once.
  if (!viewer) {
    return ctx.feedCache.getOrCompute<string>(`${key}:json`, async () => {
      const page = await sharedPage();
      return JSON.stringify({ items: page.rows.map((r) => toPostDto(r)), next_cursor: page.next });
    });
  }
  const page = await sharedPage();
  let rows = page.rows;
  if (rows.length) {
    const res = await ctx.pool.query<ViewerState>({
      name: "feed_viewer_state",
      text: FEED_VIEWER_STATE_SQL,
      values: [viewer.id, rows.map((r) => r.id)],
    });
    const states = new Map(res.rows.map((r) => [r.id, r]));
    rows = rows.map((r) => {
      const state = states.get(r.id);
      // Counters come fresh with the viewer's state: a signed-in viewer never sees them lag.
      return state ? { ...r, ...state } : r;
    });
  }
  if (pending.length) {
    // The viewer's own posts waiting for approval, after the pinned ones.
    const pinned = rows.filter((r) => r.is_pinned);
    rows = [...pinned, ...pending, ...rows.slice(pinned.length)];
  }
  return JSON.stringify({ items: rows.map((r) => toPostDto(r)), next_cursor: page.next });
}

/**
 * One post as an anonymous visitor sees it, serialized: the same bytes for everyone, so it is kept
 * in the feed cache under its community's scope, found through the post's community in the public
 * cache. Only a public, approved post of a public community gets this far (findPost refuses the
 * rest). Any change to the community empties the public cache, so the page is made again (and
 * refused once the community is private); any change to the community's posts drops it with the
 * feed pages, in every process; this process's likes, votes, shares and comments drop it at once
 * (forgetPostPage), other processes' show within the time to live (2 s), as on anonymous feed pages.
 */
export async function findPublicPost({ ctx, postId }: { ctx: AppContext; postId: string }): Promise<string> {
  // Under a spike, every missing or expired entry is made once for all the visitors asking meanwhile
  // (getOrCompute), never once each: 1,500 visitors on one post must not queue 1,500 reads.
  const page = (communityId: string) =>
    ctx.feedCache.getOrCompute(postPageKey(communityId, postId), async () =>
      JSON.stringify(await findPost({ ctx, viewer: null, postId })),
    );
  let made: string | undefined;
  const communityId = await ctx.publicCache.getOrCompute(postCommunityKey(postId), async () => {
    const found = await findPost({ ctx, viewer: null, postId });
    made = JSON.stringify(found);
    ctx.feedCache.set(postPageKey(found.community.id, postId), made);
    return found.community.id;
  });
  return made ?? page(communityId);
}

/** Drops this process's anonymous page of a post whose counters changed. */
export const forgetPostPage = (ctx: AppContext, communityId: string, postId: string) =>
  ctx.feedCache.delete(postPageKey(communityId, postId));

/** This process drops the community's cached feed pages at once; other processes hear it from the database. */
export const forgetFeed = (ctx: AppContext, communityId: string) => ctx.feedCache.clearScope(communityId);
