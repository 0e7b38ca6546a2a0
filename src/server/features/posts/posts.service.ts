import { createHmac, randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { and, eq, sql } from "drizzle-orm";
import { ONBOARDING_TASKS } from "#shared/communities";
import { LEVEL_MESSAGES, levelExempt, levelName, levelReached, MIN_LEVEL } from "#shared/levels";
import { MSG } from "#shared/messages";
import { firstUrl, POST_LIMITS } from "#shared/posts";
import type { CreatePostInput, LinkPreview, MediaItem, PollData } from "#shared/posts.schemas";
import { can, mayViewPost, type CommunityRole } from "#shared/roles";
import { UPLOAD_MESSAGES } from "#shared/uploads";
import type { AppContext, Viewer } from "#server/context";
import { executePrepared, type Queryable } from "#server/db/client";
import { mediaFiles, postCategories, postShares, posts, savedPosts } from "#server/db/schema/index";
import {
  addMember,
  completeOnboardingTask,
  forgetMembers,
  memberScope,
  requireCommunity,
  requirePermission,
} from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { APP_ANNOUNCES } from "#server/lib/announcer";
import { VIEWER_CHANNEL } from "#server/lib/feed-viewer-cache";
import { notify, type NotifyInput } from "#server/lib/notifications";
import {
  checkPostId,
  postAccessOf,
  postAccessSql,
  postChange,
  postNotFound,
  postVisibleToRole,
  requireApproved,
  requirePost,
  type PostAccess,
  type PostAccessRow,
} from "#server/lib/post-access";
import { MEMBER_CHANNEL } from "#server/lib/public-cache";
import { publishPostEvent } from "#server/lib/realtime";
import { linkUploads, receiveUpload } from "#server/lib/uploads";
import { forgetFeed, forgetPostPage } from "./posts.feed";
import { loadPost } from "./posts.queries";

// Writing: posts, reactions and media. Moderation is in posts.moderation.ts; reads in posts.feed.ts and posts.queries.ts.

/**
 * Joins a signed-in non-member of a public community when they take part (docs/decisions/0004);
 * returns the role they act with. Private communities never get here for non-members (404 before).
 */
export async function roleForTakingPart(
  tx: Queryable,
  community: { id: string },
  role: CommunityRole | null,
  viewerId: string,
): Promise<CommunityRole> {
  if (role) return role;
  await addMember(tx, { community, userId: viewerId });
  return "member";
}

/** Tells a post's author what someone did to it (notify never tells actors of their own doing). */
export const notifyPostAuthor = (
  db: Queryable,
  access: PostAccess,
  actorId: string,
  message: Pick<NotifyInput, "type" | "title" | "body" | "data">,
) =>
  notify(db, {
    recipients: [access.post.author_id],
    actorId,
    communityId: access.community.id,
    ...message,
    postId: access.post.id,
  });

/** A category of the community, or a validation error. */
async function requireCategory(db: Queryable, communityId: string, categoryId: string) {
  const [cat] = await db
    .select({ id: postCategories.id })
    .from(postCategories)
    .where(and(eq(postCategories.id, categoryId), eq(postCategories.communityId, communityId)));
  if (!cat) throw new AppError("VALIDATION", "Unknown category");
}

/**
 * A post of any type. The post is approved at once unless moderation is on and the author is not
 * the creator or a moderator. Approved posts count in the community's post_count (kept by the
 * database at commit, migration 0039).
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
  linkPreview?: (url: string) => Promise<LinkPreview | null>;
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
    // A minimum level to post (comments stay open): read only when the community sets one.
    if (community.minPostLevel > MIN_LEVEL && !levelExempt(role)) {
      const res = await tx.execute<{ level: number }>(sql`
        SELECT level::int AS level FROM member_points WHERE community_id = ${community.id} AND user_id = ${viewer.id}`);
      if (!levelReached(role, res.rows[0]?.level ?? MIN_LEVEL, community.minPostLevel)) {
        const name = levelName(community.levelNames, community.minPostLevel);
        throw new AppError("FORBIDDEN", LEVEL_MESSAGES.postLocked(community.minPostLevel, name));
      }
    }
    // Posting to an audience is for those in it (admins only: owners and admins).
    if (input.visibility && !mayViewPost(role, input.visibility)) {
      throw new AppError("FORBIDDEN", "Only owners and admins can post to admins only");
    }
    if (input.category_id) await requireCategory(tx, community.id, input.category_id);
    let media: MediaItem[] = [];
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
      await publishPostEvent(tx, {
        communityId: community.id,
        postId: row.id,
        type: "post_created",
        visibility: input.visibility ?? "public",
      });
    }
    const post = await loadPost(tx, row.id, viewer.id);
    // The community's post_count moves at commit (migration 0039's deferred trigger).
    if (role === "owner") {
      await completeOnboardingTask(
        tx,
        community.id,
        "first_post",
        ONBOARDING_TASKS.map((t) => t.id),
      );
    }
    return post;
  });
  forgetFeed(ctx, { community: community.id, post: { id: created.id, created: true, author: viewer.id } });
  return created;
}

/**
 * Tells the community's live feeds that a post changed (ids only; clients refetch through the API).
 * Likes, votes and comments are not announced: counters refresh with the next fetch, which keeps a
 * busy post from flooding every open feed.
 */
export const announce = (tx: Queryable, access: PostAccess, type: "post_created" | "post_updated" | "post_deleted") =>
  publishPostEvent(tx, {
    communityId: access.community.id,
    postId: access.post.id,
    type,
    visibility: access.post.visibility,
  });

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
    if (input.category_id) await requireCategory(ctx.db, access.community.id, input.category_id);
    set.categoryId = input.category_id;
  }
  await ctx.db.transaction(async (tx) => {
    await tx.update(posts).set(set).where(eq(posts.id, postId));
    if (access.post.is_approved && !access.post.is_hidden) await announce(tx, access, "post_updated");
  });
  forgetFeed(ctx, postChange(access));
  return loadPost(ctx.db, postId, viewer.id);
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
    if (gone[0]?.approved) await announce(tx, access, "post_deleted");
  });
  forgetFeed(ctx, postChange(access));
}

// ---------------------------------------------------------------------------------------------
// Reactions

/** What hearth_toggle_post_like returns (migration 0035): [liked 1/0, likes_count, notify_author 1/0], null without its post. */
type LikeToggled = [number, number, number] | null;

/**
 * Like toggle: the row is added if missing, else removed (migration 0035, decision 0028);
 * likes_count and the author's points move with the row (triggers) and the count is read after them.
 * A member's toggle is one statement: the access check (requirePost's row, the same rule) and the
 * toggle, which runs only when that row allows it.
 */
export async function toggleLike({ ctx, viewer, postId }: { ctx: AppContext; viewer: Viewer; postId: string }) {
  checkPostId(postId);
  const [row] = await executePrepared<PostAccessRow & { toggled: LikeToggled }>(
    ctx.db,
    sql`WITH a AS MATERIALIZED (${postAccessSql(postId, viewer.id)})
        SELECT a.*,
               CASE WHEN a.role IS NOT NULL AND a.is_approved AND NOT a.is_hidden
                         AND ${postVisibleToRole(sql`a.visibility`, sql`a.role`)}
                    THEN hearth_toggle_post_like(a.id, ${viewer.id}, true) END AS toggled
          FROM a`,
  );
  const access = postAccessOf(row, viewer.id);
  requireApproved(access);
  const notifyAuthor = (db: Queryable) =>
    notifyPostAuthor(db, access, viewer.id, { type: "post_like", title: "{actor} liked your post" });
  let toggled: LikeToggled;
  if (access.role) {
    // A readable, approved post and a member: the statement toggled (the CASE above is
    // postAccessOf's and requireApproved's rule for a member), unless the post's row went meanwhile.
    toggled = row.toggled;
    // The toggle committed on its own, holding the post's row only for its statement, and is
    // announced to the other processes by this one, with other toggles (lib/announcer.ts). The
    // author hears of it afterwards. The like is what was asked for: a notification that could not
    // be made is logged, and neither undoes the like nor answers it as failed (a retry would undo it).
    const author = access.post.author_id;
    if (toggled) {
      ctx.announcer.announce(VIEWER_CHANNEL, `${viewer.id}.${postId}`);
      if (author && author !== viewer.id)
        ctx.announcer.announce(MEMBER_CHANNEL, memberScope(access.community.id, author));
    }
    if (toggled?.[2]) {
      await notifyAuthor(ctx.db).catch((err: unknown) =>
        ctx.log.warn({ err: err instanceof Error ? err.message : String(err), postId }, "like notification not made"),
      );
    }
  } else {
    // Someone not yet a member joins by liking: the membership and the like are one, announced by
    // the database's triggers.
    toggled = await ctx.db.transaction(async (tx) => {
      await roleForTakingPart(tx, access.community, access.role, viewer.id);
      const res = await tx.execute<{ toggled: LikeToggled }>(
        sql`SELECT hearth_toggle_post_like(${postId}::uuid, ${viewer.id}, false) AS toggled`,
      );
      const done = res.rows[0]?.toggled ?? null;
      if (done?.[2]) await notifyAuthor(tx);
      return done;
    });
  }
  forgetPostPage(ctx, access.community.id, postId);
  ctx.feedViewerCache.forgetViewer(viewer.id);
  // The author's points moved (and the liker may have joined): read afresh here at once.
  forgetMembers(ctx, access.community.id, [access.post.author_id, viewer.id]);
  // The post's row went between the access check and the toggle (removed with its community).
  if (!toggled) throw postNotFound();
  return { liked: toggled[0] === 1, likes_count: toggled[1] };
}

/** Save toggle; saved posts are private to the user. */
export async function toggleSave({ ctx, viewer, postId }: { ctx: AppContext; viewer: Viewer; postId: string }) {
  await requirePost(ctx.db, postId, viewer.id);
  const removed = await ctx.db
    .delete(savedPosts)
    .where(and(eq(savedPosts.postId, postId), eq(savedPosts.userId, viewer.id)))
    .returning({ postId: savedPosts.postId });
  if (removed.length === 0) await ctx.db.insert(savedPosts).values({ postId, userId: viewer.id }).onConflictDoNothing();
  ctx.feedViewerCache.forgetViewer(viewer.id);
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
  requireApproved(access);
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
  requireApproved(access);
  if (optionIndex < 0 || optionIndex >= poll.options.length) throw new AppError("VALIDATION", "Unknown poll option");
  if (poll.expires_at && Date.parse(poll.expires_at) <= Date.now()) throw new AppError("CONFLICT", MSG.pollClosed);
  // The vote and the counts: one statement, after which the post's row is free again.
  const vote = (db: Queryable, quiet: boolean) =>
    db.execute<{ inserted: number }>(sql`
      WITH quiet AS (SELECT ${quiet ? APP_ANNOUNCES : sql`NULL`} AS q),
      ins AS (
        INSERT INTO poll_votes (post_id, user_id, option_index) VALUES (${postId}, ${viewer.id}, ${optionIndex})
        ON CONFLICT DO NOTHING RETURNING 1
      ), upd AS (
        UPDATE posts SET poll_data = jsonb_set(
            jsonb_set(poll_data, ARRAY['options', ${String(optionIndex)}, 'votes'],
                      to_jsonb((poll_data #>> ARRAY['options', ${String(optionIndex)}, 'votes'])::int + 1)),
            '{total_votes}', to_jsonb((poll_data ->> 'total_votes')::int + 1))
         WHERE id = ${postId} AND EXISTS (SELECT 1 FROM ins)
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM ins)::int AS inserted, (SELECT count(*) FROM upd)::int AS updated,
             (SELECT count(q) FROM quiet)::int AS quiet`);
  if (access.role) {
    // A member's vote commits on its own; its trigger's announcement of the voter's state stays
    // quiet and this process sends it after the commit, with others (decision 0028).
    const res = await vote(ctx.db, true);
    if (res.rows[0].inserted === 0) throw new AppError("CONFLICT", MSG.alreadyVoted);
    ctx.announcer.announce(VIEWER_CHANNEL, `${viewer.id}.${postId}`);
  } else {
    // Someone not yet a member joins by voting: the membership and the vote are one.
    await ctx.db.transaction(async (tx) => {
      await roleForTakingPart(tx, access.community, access.role, viewer.id);
      if ((await vote(tx, false)).rows[0].inserted === 0) throw new AppError("CONFLICT", MSG.alreadyVoted);
    });
  }
  forgetPostPage(ctx, access.community.id, postId);
  ctx.feedViewerCache.forgetViewer(viewer.id);
  return loadPost(ctx.db, postId, viewer.id);
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
