import { eq, sql } from "drizzle-orm";
import { LIMITS } from "#shared/limits";
import type { PollData } from "#shared/posts.schemas";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { communities } from "#server/db/schema/index";
import { AppError } from "#server/lib/errors";
import { postReadable, requirePost } from "#server/lib/post-access";
import type { PostDto } from "./post-dto";

// ---------------------------------------------------------------------------------------------
// The columns of a post and their mapping to the API's post

/**
 * The card (UserCard) of the user whose id is the SQL expression `userId`, as JSON; null when there
 * is none. With `communityId` (an SQL expression) the card carries the user's level there (1 when
 * they have no points row yet), read in the same statement: no extra round trip.
 */
export const userCardSql = (
  userId: string,
  communityId?: string,
) => `(SELECT json_build_object('user_id', u.user_id, 'username', u.username,
                            'full_name', u.full_name, 'avatar_url', u.avatar_url${
                              communityId === undefined
                                ? ""
                                : `,
                            'level', ${memberLevelSql("u.user_id", communityId)}`
                            })
     FROM user_profiles u WHERE u.user_id = ${userId})`;

/** The level (1..9) of the user `userId` in the community `communityId` (SQL expressions). */
export const memberLevelSql = (userId: string, communityId: string) =>
  `coalesce((SELECT mp.level FROM member_points mp WHERE mp.community_id = ${communityId} AND mp.user_id = ${userId}), 1)`;

/** The columns of a post answer that are the same for every viewer (`p` is the post). */
const POST_COLUMNS = `
  p.id, p.community_id, p.author_id, p.type, p.content, p.visibility, p.is_pinned, p.is_edited, p.is_approved,
  p.hidden_at IS NOT NULL AS hidden,
  p.likes_count, p.comments_count, p.share_count, p.category_id, p.media_urls, p.poll_data, p.link_preview,
  p.created_at,
  to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_raw,
  ${userCardSql("p.author_id", "p.community_id")} AS author`;

/**
 * Every column of a post answer, with the like, save and vote of the viewer `viewer` (an SQL
 * expression such as `$2`): one query, no N+1.
 */
export const postColumnsText = (viewer: string) => `${POST_COLUMNS},
  EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = p.id AND l.user_id = ${viewer}) AS liked,
  EXISTS (SELECT 1 FROM saved_posts s WHERE s.post_id = p.id AND s.user_id = ${viewer}) AS saved,
  (SELECT v.option_index FROM poll_votes v WHERE v.post_id = p.id AND v.user_id = ${viewer}) AS vote_index`;

/** The same columns for a drizzle query, with the viewer as a bound parameter. */
export const postColumns = (viewerId: string) =>
  sql.join(
    postColumnsText("\u0000")
      .split("\u0000")
      .map((part) => sql.raw(part)),
    sql`${viewerId}`,
  );

/** The columns for no one in particular (a feed page shared by every viewer): nothing liked, saved or voted. */
export const sharedPostColumns = sql.raw(`${POST_COLUMNS},
  false AS liked, false AS saved, NULL::smallint AS vote_index`);

/** A row of the post columns. */
export type PostRow = Omit<PostDto, "poll" | "created_at" | "user_vote_index"> & {
  author_id: string;
  poll_data: PollData | null;
  created_at: string | Date;
  created_at_raw: string;
  vote_index: number | null;
};

/** Poll results show once the viewer voted or the poll ended (SPEC §4); before that, only the options. */
export function toPostDto(r: PostRow, now = Date.now()): PostDto {
  let poll: PostDto["poll"] = null;
  if (r.poll_data) {
    const expires = r.poll_data.expires_at ? Date.parse(r.poll_data.expires_at) : null;
    const closed = expires !== null && expires <= now;
    const showResults = closed || r.vote_index !== null;
    poll = {
      options: r.poll_data.options.map((o) => ({ id: o.id, text: o.text, votes: showResults ? o.votes : null })),
      duration_hours: r.poll_data.duration_hours,
      expires_at: r.poll_data.expires_at,
      total_votes: showResults ? r.poll_data.total_votes : null,
      closed,
    };
  }
  return {
    id: r.id,
    community_id: r.community_id,
    type: r.type,
    content: r.content,
    visibility: r.visibility,
    is_pinned: r.is_pinned,
    is_edited: r.is_edited,
    is_approved: r.is_approved,
    hidden: r.hidden,
    likes_count: r.likes_count,
    comments_count: r.comments_count,
    share_count: r.share_count,
    category_id: r.category_id,
    media_urls: r.media_urls,
    poll,
    link_preview: r.link_preview,
    created_at: new Date(r.created_at).toISOString(),
    author: r.author,
    liked: r.liked,
    saved: r.saved,
    user_vote_index: r.vote_index,
  };
}

/** One post as the viewer sees it (no access check: the caller made it). */
export async function loadPost(db: Queryable, postId: string, viewerId: string) {
  const res = await db.execute<PostRow>(sql`SELECT ${postColumns(viewerId)} FROM posts p WHERE p.id = ${postId}`);
  return toPostDto(res.rows[0]);
}

// ---------------------------------------------------------------------------------------------
// Keyset pages

type Cursor = { t: string; id: string };

/** A page cursor: an exact timestamp (`…_raw` columns) and an id, base64url JSON. */
export function decodeCursor(cursor: string | undefined): Cursor | null {
  if (!cursor) return null;
  try {
    const after = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Cursor;
    if (typeof after.t !== "string" || Number.isNaN(Date.parse(after.t)) || !/^[0-9a-f-]{36}$/.test(after.id)) throw 0;
    return after;
  } catch {
    throw new AppError("VALIDATION", "Invalid cursor");
  }
}

/** The first `limit` of rows read with LIMIT limit + 1, and the cursor after them when there are more. */
export function keysetPage<R>(rows: R[], limit: number, keyOf: (row: R) => Cursor) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const next = rows.length > limit && last ? Buffer.from(JSON.stringify(keyOf(last))).toString("base64url") : null;
  return { rows: page, next };
}

// ---------------------------------------------------------------------------------------------
// Reads

/** One post as the viewer (null: no one) may see it: the access check, then the post. */
export async function readPost(db: Queryable, postId: string, viewerId: string | null) {
  const access = await requirePost(db, postId, viewerId);
  return { access, post: await loadPost(db, postId, viewerId ?? "") };
}

/** One post (the share link target), with the community's name and slug for the page around it. */
export async function findPost({ ctx, viewer, postId }: { ctx: AppContext; viewer: Viewer | null; postId: string }) {
  const { access, post } = await readPost(ctx.db, postId, viewer?.id ?? null);
  const [c] = await ctx.db
    .select({ id: communities.id, slug: communities.slug, name: communities.name, icon_url: communities.iconUrl })
    .from(communities)
    .where(eq(communities.id, access.community.id));
  return { post, community: c, viewer_role: access.role };
}

/** The viewer's saved posts, newest saved first, only those they can still see. */
export async function findSaved({ ctx, viewer, cursor }: { ctx: AppContext; viewer: Viewer; cursor?: string }) {
  const after = decodeCursor(cursor);
  const limit = LIMITS.feedPageSize;
  const res = await ctx.db.execute<
    PostRow & { saved_at_raw: string; community: { id: string; slug: string; name: string } }
  >(sql`
    SELECT ${postColumns(viewer.id)},
           to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS saved_at_raw,
           json_build_object('id', c.id, 'slug', c.slug, 'name', c.name) AS community
      FROM saved_posts s
      JOIN posts p ON p.id = s.post_id
      JOIN communities c ON c.id = p.community_id
      LEFT JOIN community_members m ON m.community_id = c.id AND m.user_id = ${viewer.id}
     WHERE s.user_id = ${viewer.id}
       AND ${postReadable("p", sql`m.role`, sql`c.visibility`, viewer.id)}
       ${after ? sql`AND (s.created_at, s.post_id) < (${after.t}::timestamptz, ${after.id}::uuid)` : sql``}
     ORDER BY s.created_at DESC, s.post_id DESC
     LIMIT ${limit + 1}`);
  const page = keysetPage(res.rows, limit, (r) => ({ t: r.saved_at_raw, id: r.id }));
  return {
    items: page.rows.map((r) => ({ ...toPostDto(r), community: r.community })),
    next_cursor: page.next,
  };
}
