import { createHmac, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { ONBOARDING_TASKS } from "#shared/communities";
import { LIMITS } from "#shared/limits";
import { MSG } from "#shared/messages";
import { firstUrl, POST_LIMITS } from "#shared/posts";
import { type CreatePostInput } from "#shared/posts.schemas";
import { can, isRole, ROLE_RANK, type CommunityRole } from "#shared/roles";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import {
  communities,
  mediaFiles,
  pollVotes,
  postCategories,
  postShares,
  posts,
  savedPosts,
  userWarnings,
  type PollData,
} from "#server/db/schema/index";
import {
  addMember,
  communityNotFound,
  completeOnboardingTask,
  findCommunityRow,
  requireCommunity,
  requirePermission,
} from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { linkUploads, receiveUpload } from "#server/lib/uploads";
import { UPLOAD_MESSAGES } from "#shared/uploads";
import type { Readable } from "node:stream";
import { notify } from "#server/lib/notifications";
import { requirePost, visibleTo } from "#server/lib/post-access";
import { postCommunityKey, postPageKey } from "#server/lib/public-cache";
import { publishPostEvent } from "#server/lib/realtime";

type Visibility = "public" | "members" | "admins";
const MAX_PINNED = 5;

// ---------------------------------------------------------------------------------------------
// Reading

/** The columns every post answer carries, with the viewer's like, save and vote (one query, no N+1). */
const postColumnsText = (viewer: string) => `
  p.id, p.community_id, p.author_id, p.type, p.content, p.visibility, p.is_pinned, p.is_edited, p.is_approved,
  p.likes_count, p.comments_count, p.share_count, p.category_id, p.media_urls, p.poll_data, p.link_preview,
  p.created_at,
  to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_raw,
  (SELECT json_build_object('user_id', u.user_id, 'username', u.username, 'full_name', u.full_name,
                            'avatar_url', u.avatar_url)
     FROM user_profiles u WHERE u.user_id = p.author_id) AS author,
  EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = p.id AND l.user_id = ${viewer}) AS liked,
  EXISTS (SELECT 1 FROM saved_posts s WHERE s.post_id = p.id AND s.user_id = ${viewer}) AS saved,
  (SELECT v.option_index FROM poll_votes v WHERE v.post_id = p.id AND v.user_id = ${viewer}) AS vote_index`;

/** The same columns for a drizzle query, with the viewer as a bound parameter. */
const postColumns = (viewerId: string) =>
  sql.join(
    postColumnsText("\u0000")
      .split("\u0000")
      .map((part) => sql.raw(part)),
    sql`${viewerId}`,
  );

type PostRow = {
  id: string;
  community_id: string;
  author_id: string;
  type: "text" | "image" | "video" | "poll" | "link";
  content: string;
  visibility: Visibility;
  is_pinned: boolean;
  is_edited: boolean;
  is_approved: boolean;
  likes_count: number;
  comments_count: number;
  share_count: number;
  category_id: string | null;
  media_urls: { type: "image" | "video" | "document"; url: string; thumbnail?: string; medium?: string }[];
  poll_data: PollData | null;
  link_preview: { url: string; title: string; description: string; image: string | null } | null;
  created_at: string | Date;
  created_at_raw: string;
  author: { user_id: string; username: string; full_name: string; avatar_url: string | null } | null;
  liked: boolean;
  saved: boolean;
  vote_index: number | null;
};

export type PostDto = ReturnType<typeof toPostDto>;

/** Poll results show once the viewer voted or the poll ended (SPEC §4); before that, only the options. */
function toPostDto(r: PostRow, now = Date.now()) {
  let poll = null;
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

type FeedCursor = { t: string; id: string };

function decodeFeedCursor(cursor: string | undefined): FeedCursor | null {
  if (!cursor) return null;
  try {
    const after = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as FeedCursor;
    if (typeof after.t !== "string" || Number.isNaN(Date.parse(after.t)) || !/^[0-9a-f-]{36}$/.test(after.id)) throw 0;
    return after;
  } catch {
    throw new AppError("VALIDATION", "Invalid cursor");
  }
}
const encodeFeedCursor = (r: PostRow) =>
  Buffer.from(JSON.stringify({ t: r.created_at_raw, id: r.id })).toString("base64url");

/** The columns of a feed page that are the same for every viewer (no like, save or vote state). */
const sharedColumns = sql`
  p.id, p.community_id, p.author_id, p.type, p.content, p.visibility, p.is_pinned, p.is_edited, p.is_approved,
  p.likes_count, p.comments_count, p.share_count, p.category_id, p.media_urls, p.poll_data, p.link_preview,
  p.created_at,
  to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_raw,
  (SELECT json_build_object('user_id', u.user_id, 'username', u.username, 'full_name', u.full_name,
                            'avatar_url', u.avatar_url)
     FROM user_profiles u WHERE u.user_id = p.author_id) AS author,
  false AS liked, false AS saved, NULL::smallint AS vote_index`;

/** The viewer's role in $1 for user $2. */
const FEED_ROLE_SQL = `SELECT role, NULL AS pending FROM community_members WHERE community_id = $1 AND user_id = $2`;

/** The same, with the viewer's own pending posts ($3: a category or null) for the first page. */
const FEED_ROLE_PENDING_SQL = `
  SELECT m.role,
         (SELECT json_agg(x) FROM (
            SELECT ${postColumnsText("$2")} FROM posts p
             WHERE p.community_id = $1 AND p.author_id = $2 AND NOT p.is_approved AND p.deleted_at IS NULL
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

/** The community's id and visibility by id or slug, cached with the public pages (dropped on any community change). */
async function feedCommunity(ctx: AppContext, idOrSlug: string) {
  const key = `feed-community:${idOrSlug.toLowerCase()}`;
  const cached = ctx.publicCache.get<{ id: string; visibility: string }>(key);
  if (cached) return cached;
  const row = await findCommunityRow(ctx.db, idOrSlug);
  if (!row) throw communityNotFound();
  const value = { id: row.id, visibility: row.visibility };
  ctx.publicCache.set(key, value);
  return value;
}

/**
 * The feed: pinned posts first (first page only, at most five), then newest first, 50 a page by
 * keyset; approved posts the viewer's role may see, and on the first page the viewer's own
 * pending ones. The shared part of a page (by community, category, cursor and visibility) comes
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
  const community = await feedCommunity(ctx, idOrSlug);
  const after = decodeFeedCursor(cursor);
  const limit = LIMITS.feedPageSize;
  let role: CommunityRole | null = null;
  let pending: PostRow[] = [];
  if (viewer) {
    // Prepared statements: these run on every signed-in feed read, so PostgreSQL plans them once.
    const res = after
      ? await ctx.pool.query<{ role: string | null; pending: null }>({
          name: "feed_role",
          text: FEED_ROLE_SQL,
          values: [community.id, viewer.id],
        })
      : await ctx.pool.query<{ role: string | null; pending: PostRow[] | null }>({
          name: "feed_role_pending",
          text: FEED_ROLE_PENDING_SQL,
          values: [community.id, viewer.id, categoryId ?? null],
        });
    role = isRole(res.rows[0]?.role) ? (res.rows[0].role as CommunityRole) : null;
    pending = res.rows[0]?.pending ?? [];
  }
  if (community.visibility === "private" && !role) throw communityNotFound();
  const visibility = visibleTo(role);
  const key = `${community.id}:${categoryId ?? ""}:${visibility.join(",")}:${cursor ?? ""}`;
  // The shared part of the page, made once for every request that asks while it is made.
  const sharedPage = () =>
    ctx.feedCache.getOrCompute<SharedPage>(key, async () => {
      const conditions = [
        sql`p.community_id = ${community.id}`,
        sql`p.deleted_at IS NULL`,
        sql`p.is_approved`,
        sql`p.visibility = ANY(${sql.param(visibility)}::text[])`,
      ];
      if (categoryId) conditions.push(sql`p.category_id = ${categoryId}`);
      if (after) {
        conditions.push(sql`NOT p.is_pinned AND (p.created_at, p.id) < (${after.t}::timestamptz, ${after.id}::uuid)`);
      }
      const res = await ctx.db.execute<PostRow>(sql`
        SELECT ${sharedColumns}
          FROM posts p
         WHERE ${sql.join(conditions, sql` AND `)}
         ORDER BY p.is_pinned DESC, p.created_at DESC, p.id DESC
         LIMIT ${limit + 1}`);
      const rows = res.rows.slice(0, limit);
      const last = rows.at(-1);
      return { rows, next: res.rows.length > limit && last ? encodeFeedCursor(last) : null };
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

async function postDto(db: Queryable, postId: string, viewerId: string) {
  const res = await db.execute<PostRow>(sql`SELECT ${postColumns(viewerId)} FROM posts p WHERE p.id = ${postId}`);
  return toPostDto(res.rows[0]);
}

/** One post (the share link target), with the community's name and slug for the page around it. */
export async function findPost({ ctx, viewer, postId }: { ctx: AppContext; viewer: Viewer | null; postId: string }) {
  const access = await requirePost(ctx.db, postId, viewer?.id);
  const [c] = await ctx.db
    .select({ id: communities.id, slug: communities.slug, name: communities.name, icon_url: communities.iconUrl })
    .from(communities)
    .where(eq(communities.id, access.community.id));
  return { post: await postDto(ctx.db, postId, viewer?.id ?? ""), community: c, viewer_role: access.role };
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

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * Joins a signed-in non-member of a public community when they take part (docs/decisions/0004);
 * returns the role they act with. Private communities never get here for non-members (404 before).
 */
async function roleForTakingPart(
  tx: Queryable,
  community: { id: string; visibility: string },
  role: CommunityRole | null,
  viewerId: string,
) {
  if (role) return role;
  await addMember(tx, { community, userId: viewerId });
  return "member" as CommunityRole;
}

/**
 * A post of any type. The post is approved at once unless moderation is on and the author is not
 * the creator or a moderator. Approved posts count in the community's post_count.
 */
export async function createPost({
  ctx,
  viewer,
  idOrSlug,
  input,
  linkPreview,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
  input: CreatePostInput;
  /** Fetches a preview for a link post's first URL (injected: the fetch happens outside the transaction). */
  linkPreview?: (url: string) => Promise<PostRow["link_preview"]>;
}) {
  const access = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  const { community } = access;
  const content = input.content.trim();
  const url = firstUrl(content);
  const preview =
    url && linkPreview && (input.type === "link" || input.type === "text") ? await linkPreview(url) : null;
  const type = input.type === "text" && preview ? "link" : input.type;
  const created = await ctx.db.transaction(async (tx) => {
    const role = await roleForTakingPart(tx, community, access.role, viewer.id);
    requirePermission(role, "create_post");
    if (input.visibility === "admins" && ROLE_RANK[role] < ROLE_RANK.admin) {
      throw new AppError("FORBIDDEN", "Only owners and admins can post to admins only");
    }
    if (input.category_id) {
      const [cat] = await tx
        .select({ id: postCategories.id })
        .from(postCategories)
        .where(and(eq(postCategories.id, input.category_id), eq(postCategories.communityId, community.id)));
      if (!cat) throw new AppError("VALIDATION", "Unknown category");
    }
    let media: PostRow["media_urls"] = [];
    // Only files uploaded to this community's post media may be attached.
    const prefix = `/media/community-assets/${community.id}/posts/`;
    if (type === "image" && input.images) {
      if (input.images.some((i) => ![i.url, i.medium, i.thumbnail].every((u) => !u || u.startsWith(prefix)))) {
        throw new AppError("VALIDATION", "Images must be uploaded to this community");
      }
      media = input.images.map((i) => ({ type: "image", url: i.url, medium: i.medium, thumbnail: i.thumbnail }));
    }
    if (type === "video" && input.video_url) {
      if (input.video_url.startsWith("/media/") && !input.video_url.startsWith(prefix)) {
        throw new AppError("VALIDATION", "Videos must be uploaded to this community");
      }
      media = [{ type: "video", url: input.video_url }];
    }
    let poll: PollData | null = null;
    if (type === "poll" && input.poll) {
      const hours = input.poll.duration_hours;
      poll = {
        options: input.poll.options
          .map((o) => o.trim())
          .filter(Boolean)
          .map((text) => ({ id: randomUUID(), text, votes: 0 })),
        duration_hours: hours,
        expires_at: hours > 0 ? new Date(Date.now() + hours * 3_600_000).toISOString() : null,
        total_votes: 0,
      };
    }
    const approved = !community.moderationEnabled || community.createdBy === viewer.id || can(role, "moderate_posts");
    const [row] = await tx
      .insert(posts)
      .values({
        communityId: community.id,
        authorId: viewer.id,
        categoryId: input.category_id ?? null,
        content,
        type,
        visibility: input.visibility ?? "public",
        isApproved: approved,
        mediaUrls: media,
        pollData: poll,
        linkPreview: preview ?? null,
      })
      .returning({ id: posts.id });
    // Its own uploads are deleted with it.
    await linkUploads(
      tx,
      media.map((m) => m.url),
      { postId: row.id },
      { communityId: community.id, ownerId: viewer.id },
    );
    if (approved) {
      await bumpPostCount(tx, community.id, 1);
      await publishPostEvent(tx, {
        communityId: community.id,
        postId: row.id,
        type: "post_created",
        visibility: input.visibility ?? "public",
      });
    }
    if (role === "owner") {
      await completeOnboardingTask(
        tx,
        community.id,
        "first_post",
        ONBOARDING_TASKS.map((t) => t.id),
      );
    }
    return postDto(tx, row.id, viewer.id);
  });
  forgetFeed(ctx, community.id);
  return created;
}

/**
 * Tells the community's live feeds that a post changed (ids only; clients refetch through the API).
 * Likes, votes and comments are not announced: counters refresh with the next fetch, which keeps a
 * busy post from flooding every open feed.
 */
const announce = (
  tx: Queryable,
  access: Awaited<ReturnType<typeof requirePost>>,
  type: "post_created" | "post_updated" | "post_deleted",
) =>
  publishPostEvent(tx, {
    communityId: access.community.id,
    postId: access.post.id,
    type,
    visibility: access.post.visibility,
  });

/** This process drops the community's cached feed pages at once; other processes hear it from the database. */
const forgetFeed = (ctx: AppContext, communityId: string) => ctx.feedCache.clearScope(communityId);

const bumpPostCount = (db: Queryable, communityId: string, by: number) =>
  db
    .update(communities)
    .set({ postCount: sql`GREATEST(${communities.postCount} + ${by}, 0)` })
    .where(eq(communities.id, communityId));

/** Authors edit their own posts (content, category); the post is marked edited. */
export async function updatePost({
  ctx,
  viewer,
  postId,
  input,
}: {
  ctx: AppContext;
  viewer: Viewer;
  postId: string;
  input: { content?: string; category_id?: string | null };
}) {
  const access = await requirePost(ctx.db, postId, viewer.id);
  if (access.post.author_id !== viewer.id || !can(access.role, "edit_own_post")) {
    throw new AppError("FORBIDDEN", MSG.insufficientPermissions);
  }
  const set: Partial<typeof posts.$inferInsert> = { updatedAt: new Date() };
  if (input.content !== undefined) {
    const content = input.content.trim();
    if (!content && (access.post.type === "text" || access.post.type === "link")) {
      throw new AppError("VALIDATION", MSG.enterContent);
    }
    set.content = content;
    // "Edited" means the words changed; moving a post to another category does not count.
    const [current] = await ctx.db.select({ content: posts.content }).from(posts).where(eq(posts.id, postId));
    if (current && current.content !== content) set.isEdited = true;
  }
  if (input.category_id !== undefined) {
    if (input.category_id) {
      const [cat] = await ctx.db
        .select({ id: postCategories.id })
        .from(postCategories)
        .where(and(eq(postCategories.id, input.category_id), eq(postCategories.communityId, access.community.id)));
      if (!cat) throw new AppError("VALIDATION", "Unknown category");
    }
    set.categoryId = input.category_id;
  }
  await ctx.db.transaction(async (tx) => {
    await tx.update(posts).set(set).where(eq(posts.id, postId));
    if (access.post.is_approved) await announce(tx, access, "post_updated");
  });
  forgetFeed(ctx, access.community.id);
  return postDto(ctx.db, postId, viewer.id);
}

/** Soft delete: the author (delete_own_post) or a moderator and up (delete_any_post). Gone from every view. */
export async function deletePost({ ctx, viewer, postId }: { ctx: AppContext; viewer: Viewer; postId: string }) {
  const access = await requirePost(ctx.db, postId, viewer.id);
  const own = access.post.author_id === viewer.id && can(access.role, "delete_own_post");
  if (!own && !can(access.role, "delete_any_post")) throw new AppError("FORBIDDEN", MSG.insufficientPermissions);
  await ctx.db.transaction(async (tx) => {
    const gone = await tx
      .update(posts)
      .set({ deletedAt: new Date(), isPinned: false })
      .where(and(eq(posts.id, postId), sql`${posts.deletedAt} IS NULL`))
      .returning({ approved: posts.isApproved });
    // Its uploaded files go with it (a trigger on media_files queues their removal from storage).
    if (gone.length > 0) await tx.delete(mediaFiles).where(eq(mediaFiles.postId, postId));
    if (gone[0]?.approved) {
      await bumpPostCount(tx, access.community.id, -1);
      await announce(tx, access, "post_deleted");
    }
  });
  forgetFeed(ctx, access.community.id);
}

// ---------------------------------------------------------------------------------------------
// Reactions

/** Like toggle: the row is added if missing, else removed; likes_count moves with the row (a trigger). */
export async function toggleLike({ ctx, viewer, postId }: { ctx: AppContext; viewer: Viewer; postId: string }) {
  const access = await requirePost(ctx.db, postId, viewer.id);
  if (!access.post.is_approved) throw new AppError("CONFLICT", "This post is waiting for approval");
  const toggle = async (db: Queryable) => {
    // One statement: remove the like if it is there, else add it. likes_count moves with the row
    // (a trigger), so it is read afterwards.
    const res = await db.execute<{ liked: boolean; likes_count: number }>(sql`
      WITH removed AS (
        DELETE FROM post_likes WHERE post_id = ${postId} AND user_id = ${viewer.id} RETURNING 1
      ), added AS (
        INSERT INTO post_likes (post_id, user_id)
        SELECT ${postId}, ${viewer.id} WHERE NOT EXISTS (SELECT 1 FROM removed)
        ON CONFLICT DO NOTHING RETURNING 1
      )
      SELECT NOT EXISTS (SELECT 1 FROM removed) AS liked`);
    const [row] = await db.select({ likes: posts.likesCount }).from(posts).where(eq(posts.id, postId));
    return { liked: res.rows[0].liked, likes_count: row.likes };
  };
  const notifyAuthor = (db: Queryable) =>
    notify(db, {
      recipients: [access.post.author_id],
      actorId: viewer.id,
      communityId: access.community.id,
      type: "post_like",
      title: "{actor} liked your post",
      postId,
    });
  let result: { liked: boolean; likes_count: number };
  if (access.role) {
    // A member's toggle commits on its own, holding the post's row only for its statement; the
    // author hears of it afterwards. The like is what was asked for: a notification that could not
    // be made is logged, and neither undoes the like nor answers it as failed (a retry would undo it).
    result = await toggle(ctx.db);
    if (result.liked) {
      await notifyAuthor(ctx.db).catch((err: unknown) =>
        ctx.log.warn({ err: err instanceof Error ? err.message : String(err), postId }, "like notification not made"),
      );
    }
  } else {
    // Someone not yet a member joins by liking: the membership and the like are one.
    result = await ctx.db.transaction(async (tx) => {
      await roleForTakingPart(tx, access.community, access.role, viewer.id);
      const toggled = await toggle(tx);
      if (toggled.liked) await notifyAuthor(tx);
      return toggled;
    });
  }
  forgetPostPage(ctx, access.community.id, postId);
  return result;
}

/** Save toggle; saved posts are private to the user. */
export async function toggleSave({ ctx, viewer, postId }: { ctx: AppContext; viewer: Viewer; postId: string }) {
  await requirePost(ctx.db, postId, viewer.id);
  const removed = await ctx.db
    .delete(savedPosts)
    .where(and(eq(savedPosts.postId, postId), eq(savedPosts.userId, viewer.id)))
    .returning({ postId: savedPosts.postId });
  if (removed.length === 0) await ctx.db.insert(savedPosts).values({ postId, userId: viewer.id }).onConflictDoNothing();
  return { saved: removed.length === 0 };
}

/** A visitor's share counts once per address, post and this window. */
const VISITOR_SHARE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Who is sharing, as post_shares keys it: the user, or for a visitor a keyed hash of the address
 * and the current window (the address itself is not stored, and one day's key says nothing of another's).
 */
function sharerKey(ctx: AppContext, viewer: Viewer | null, ip: string): string {
  if (viewer) return `u:${viewer.id}`;
  const day = Math.floor(Date.now() / VISITOR_SHARE_WINDOW_MS);
  return `v:${createHmac("sha256", ctx.config.authSecret).update(`share:${day}:${ip}`).digest("base64url")}`;
}

/**
 * Counts a share (the link was shared or copied); anyone who can see the post may share it. Each
 * sharer counts once: a signed-in user once per post, a visitor once per address, post and day
 * (the route also limits visitors' calls per address). A repeat answers the count unchanged.
 */
export async function sharePost({
  ctx,
  viewer,
  postId,
  ip,
}: {
  ctx: AppContext;
  viewer: Viewer | null;
  postId: string;
  ip: string;
}) {
  const access = await requirePost(ctx.db, postId, viewer?.id);
  if (!access.post.is_approved) throw new AppError("CONFLICT", "This post is waiting for approval");
  // The trigger on post_shares moves share_count with the row, so only a new sharer counts.
  const added = await ctx.db
    .insert(postShares)
    .values({ postId, sharer: sharerKey(ctx, viewer, ip), userId: viewer?.id ?? null })
    .onConflictDoNothing()
    .returning({ postId: postShares.postId });
  const [row] = await ctx.db.select({ share_count: posts.shareCount }).from(posts).where(eq(posts.id, postId));
  if (added.length > 0) forgetPostPage(ctx, access.community.id, postId);
  return row;
}

/** One vote per user per poll (the primary key enforces it); the counts move in the same transaction. */
export async function votePoll({
  ctx,
  viewer,
  postId,
  optionIndex,
}: {
  ctx: AppContext;
  viewer: Viewer;
  postId: string;
  optionIndex: number;
}) {
  const access = await requirePost(ctx.db, postId, viewer.id);
  const poll = access.post.poll_data;
  if (!poll) throw new AppError("BAD_REQUEST", "This post has no poll");
  if (!access.post.is_approved) throw new AppError("CONFLICT", "This post is waiting for approval");
  if (optionIndex < 0 || optionIndex >= poll.options.length) throw new AppError("VALIDATION", "Unknown poll option");
  if (poll.expires_at && Date.parse(poll.expires_at) <= Date.now()) throw new AppError("CONFLICT", MSG.pollClosed);
  await ctx.db.transaction(async (tx) => {
    await roleForTakingPart(tx, access.community, access.role, viewer.id);
    const inserted = await tx
      .insert(pollVotes)
      .values({ postId, userId: viewer.id, optionIndex })
      .onConflictDoNothing()
      .returning({ postId: pollVotes.postId });
    if (inserted.length === 0) throw new AppError("CONFLICT", MSG.alreadyVoted);
    await tx.execute(sql`
      UPDATE posts SET poll_data = jsonb_set(
          jsonb_set(poll_data, ARRAY['options', ${String(optionIndex)}, 'votes'],
                    to_jsonb((poll_data #>> ARRAY['options', ${String(optionIndex)}, 'votes'])::int + 1)),
          '{total_votes}', to_jsonb((poll_data ->> 'total_votes')::int + 1))
       WHERE id = ${postId}`);
  });
  forgetPostPage(ctx, access.community.id, postId);
  return postDto(ctx.db, postId, viewer.id);
}

// ---------------------------------------------------------------------------------------------
// Moderation

async function requireModerator(ctx: AppContext, viewer: Viewer, postId: string) {
  const access = await requirePost(ctx.db, postId, viewer.id);
  requirePermission(access.role, "moderate_posts");
  return access;
}

/** Pin to the top of the feed, or unpin (owner, admin, moderator); at most five pinned at once. */
export async function pinPost({
  ctx,
  viewer,
  postId,
  pinned,
}: {
  ctx: AppContext;
  viewer: Viewer;
  postId: string;
  pinned: boolean;
}) {
  const access = await requireModerator(ctx, viewer, postId);
  if (pinned && !access.post.is_approved) throw new AppError("CONFLICT", "This post is waiting for approval");
  await ctx.db.transaction(async (tx) => {
    if (pinned && !access.post.is_pinned) {
      // Lock the community row so two pins at once cannot pass the limit together.
      await tx.execute(sql`SELECT 1 FROM communities WHERE id = ${access.community.id} FOR UPDATE`);
      const [{ n }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(posts)
        .where(
          and(eq(posts.communityId, access.community.id), eq(posts.isPinned, true), sql`${posts.deletedAt} IS NULL`),
        );
      if (n >= MAX_PINNED) throw new AppError("CONFLICT", `At most ${MAX_PINNED} posts can be pinned`);
    }
    await tx.update(posts).set({ isPinned: pinned }).where(eq(posts.id, postId));
    await announce(tx, access, "post_updated");
  });
  forgetFeed(ctx, access.community.id);
  return postDto(ctx.db, postId, viewer.id);
}

/** Pending posts of a community, oldest first (owner, admin, moderator). */
export async function findPending({ ctx, viewer, idOrSlug }: { ctx: AppContext; viewer: Viewer; idOrSlug: string }) {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(role, "moderate_posts");
  const res = await ctx.db.execute<PostRow>(sql`
    SELECT ${postColumns(viewer.id)} FROM posts p
     WHERE p.community_id = ${community.id} AND NOT p.is_approved AND p.deleted_at IS NULL
     ORDER BY p.created_at LIMIT 100`);
  return res.rows.map((r) => toPostDto(r));
}

/** Approve (the post appears, and its author is told) or reject (the post is removed). */
export async function reviewPost({
  ctx,
  viewer,
  postId,
  approve,
}: {
  ctx: AppContext;
  viewer: Viewer;
  postId: string;
  approve: boolean;
}) {
  const access = await requireModerator(ctx, viewer, postId);
  if (access.post.is_approved) throw new AppError("CONFLICT", "This post is already approved");
  await ctx.db.transaction(async (tx) => {
    if (approve) {
      const done = await tx
        .update(posts)
        .set({ isApproved: true })
        .where(and(eq(posts.id, postId), eq(posts.isApproved, false)))
        .returning({ id: posts.id });
      if (done.length === 0) return;
      await bumpPostCount(tx, access.community.id, 1);
      // Until now only its author and moderators could see it: for everyone else it is new.
      await announce(tx, access, "post_created");
      await notify(tx, {
        recipients: [access.post.author_id],
        actorId: viewer.id,
        communityId: access.community.id,
        type: "post_approved",
        title: "Your post was approved",
        body: "It is now visible in the community.",
        postId,
      });
    } else {
      await tx.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, postId));
    }
  });
  forgetFeed(ctx, access.community.id);
  return { id: postId, approved: approve };
}

/** A moderator's warning to a post's author: recorded, and the author is told. */
export async function warnAuthor({
  ctx,
  viewer,
  postId,
  reason,
}: {
  ctx: AppContext;
  viewer: Viewer;
  postId: string;
  reason: string;
}) {
  const access = await requireModerator(ctx, viewer, postId);
  if (access.post.author_id === viewer.id) throw new AppError("BAD_REQUEST", "You cannot warn yourself");
  await ctx.db.transaction(async (tx) => {
    await tx.insert(userWarnings).values({
      communityId: access.community.id,
      userId: access.post.author_id,
      postId,
      issuedBy: viewer.id,
      reason,
    });
    await notify(tx, {
      recipients: [access.post.author_id],
      actorId: viewer.id,
      communityId: access.community.id,
      type: "other",
      title: "A moderator warned you about a post",
      body: reason || "Please review the community's rules.",
      postId,
      data: { kind: "warning" },
    });
  });
  return { warned: true };
}

// ---------------------------------------------------------------------------------------------
// Saved posts and media

/** The viewer's saved posts, newest saved first, only those they can still see. */
export async function findSaved({ ctx, viewer, cursor }: { ctx: AppContext; viewer: Viewer; cursor?: string }) {
  const after = decodeFeedCursor(cursor);
  const limit = LIMITS.feedPageSize;
  const res = await ctx.db.execute<
    PostRow & { saved_at_raw: string; community: { id: string; slug: string; name: string } }
  >(sql`
    SELECT ${postColumns(viewer.id)},
           to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS saved_at_raw,
           json_build_object('id', c.id, 'slug', c.slug, 'name', c.name) AS community
      FROM saved_posts s
      JOIN posts p ON p.id = s.post_id AND p.deleted_at IS NULL
      JOIN communities c ON c.id = p.community_id
      LEFT JOIN community_members m ON m.community_id = c.id AND m.user_id = ${viewer.id}
     WHERE s.user_id = ${viewer.id}
       AND (c.visibility = 'public' OR m.role IS NOT NULL)
       AND (p.is_approved OR p.author_id = ${viewer.id})
       AND (p.visibility = 'public' OR (p.visibility = 'members' AND m.role IS NOT NULL)
            OR (p.visibility = 'admins' AND m.role IN ('owner', 'admin')))
       ${after ? sql`AND (s.created_at, s.post_id) < (${after.t}::timestamptz, ${after.id}::uuid)` : sql``}
     ORDER BY s.created_at DESC, s.post_id DESC
     LIMIT ${limit + 1}`);
  const rows = res.rows.slice(0, limit);
  const last = rows.at(-1);
  return {
    items: rows.map((r) => ({ ...toPostDto(r), community: r.community })),
    next_cursor:
      res.rows.length > limit && last
        ? Buffer.from(JSON.stringify({ t: last.saved_at_raw, id: last.id })).toString("base64url")
        : null,
  };
}

/** An image for a post, re-encoded into the spec's variants under the community's media. */
export async function uploadPostImage({
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
  const access = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  // A community's media are uploaded only by its members with the right to post there.
  requirePermission(access.role, "create_post");
  return receiveUpload(ctx, file, {
    base: `community-assets/${access.community.id}/posts/${randomUUID()}`,
    ownerId: viewer.id,
    communityId: access.community.id,
    purpose: "post",
    kinds: ["image"],
    notAllowedMessage: UPLOAD_MESSAGES.notImage,
    originalName: name,
  });
}

export const POST_MAX_IMAGES = POST_LIMITS.imagesMax;
