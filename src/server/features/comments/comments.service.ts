import { and, eq, sql } from "drizzle-orm";
import { MSG } from "#shared/messages";
import { can } from "#shared/roles";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { comments, posts } from "#server/db/schema/index";
import { forgetMembers, memberScope, requirePermission } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { MEMBER_CHANNEL } from "#server/lib/public-cache";
import { notify } from "#server/lib/notifications";
import { requireApproved, requirePost } from "#server/lib/post-access";
import { forgetPostPage, roleForTakingPart, userCardSql, type MemberCard } from "#server/features/posts/index";

/** A comment's author (`c`), as JSON, with their level in the post's community (`p`). */
const AUTHOR = sql.raw(userCardSql("c.author_id", "p.community_id"));

const commentNotFound = () => new AppError("NOT_FOUND", "Comment not found");

type CommentRow = {
  id: string;
  post_id: string;
  parent_id: string | null;
  content: string;
  likes_count: number;
  is_edited: boolean;
  deleted: boolean;
  hidden: boolean;
  created_at: string | Date;
  author: MemberCard | null;
  liked: boolean;
};

const toDto = (r: CommentRow) => ({
  id: r.id,
  post_id: r.post_id,
  parent_id: r.parent_id,
  // A deleted comment with replies stays as a placeholder so the thread keeps its shape.
  content: r.deleted ? "" : r.content,
  likes_count: r.likes_count,
  is_edited: r.is_edited,
  deleted: r.deleted,
  hidden: r.hidden,
  created_at: new Date(r.created_at).toISOString(),
  author: r.deleted ? null : r.author,
  liked: r.liked,
});

/**
 * Whether the viewer sees comment `x` (an alias): not deleted, and not hidden pending review after
 * reports (issue 22) unless it is their own. Someone else's hidden comment with replies stays as a
 * placeholder, like a deleted one, so the thread keeps its shape and nothing of it shows.
 */
const shownTo = (x: string, viewerId: string) =>
  sql`(${sql.raw(x)}.deleted_at IS NULL AND (${sql.raw(x)}.hidden_at IS NULL OR ${sql.raw(x)}.author_id = ${viewerId}))`;

/**
 * A post's comments, oldest first, replies under their comment (one level); deleted ones (and others'
 * hidden ones) without replies are left out; the author sees their own hidden comment, flagged.
 */
export async function findComments({
  ctx,
  viewer,
  postId,
}: {
  ctx: AppContext;
  viewer: Viewer | null;
  postId: string;
}) {
  await requirePost(ctx.db, postId, viewer?.id);
  const viewerId = viewer?.id ?? "";
  const res = await ctx.db.execute<CommentRow>(sql`
    SELECT c.id, c.post_id, c.parent_id, c.content, c.likes_count, c.is_edited, NOT ${shownTo("c", viewerId)} AS deleted,
           c.hidden_at IS NOT NULL AND ${shownTo("c", viewerId)} AS hidden,
           c.created_at,
           ${AUTHOR} AS author,
           EXISTS (SELECT 1 FROM comment_likes l WHERE l.comment_id = c.id AND l.user_id = ${viewerId}) AS liked
      FROM comments c
      JOIN posts p ON p.id = c.post_id
     WHERE c.post_id = ${postId}
       AND (${shownTo("c", viewerId)} OR (c.parent_id IS NULL AND EXISTS (
             SELECT 1 FROM comments r WHERE r.parent_id = c.id AND ${shownTo("r", viewerId)})))
     ORDER BY c.created_at, c.id
     LIMIT 2000`);
  return res.rows.map(toDto);
}

/** A comment, or a reply to a top-level comment of the same post; comments_count moves in the same transaction. */
export async function createComment({
  ctx,
  viewer,
  postId,
  content,
  parentId,
}: {
  ctx: AppContext;
  viewer: Viewer;
  postId: string;
  content: string;
  parentId?: string | null;
}) {
  const access = await requirePost(ctx.db, postId, viewer.id);
  requireApproved(access);
  const created = await ctx.db.transaction(async (tx) => {
    const role = await roleForTakingPart(tx, access.community, access.role, viewer.id);
    requirePermission(role, "create_post");
    let parentAuthor: string | null = null;
    if (parentId) {
      const [parent] = await tx
        .select({ parentId: comments.parentId, deletedAt: comments.deletedAt, authorId: comments.authorId })
        .from(comments)
        .where(and(eq(comments.id, parentId), eq(comments.postId, postId)));
      if (!parent || parent.deletedAt) throw commentNotFound();
      if (parent.parentId) throw new AppError("VALIDATION", "Replies go one level deep: reply to the comment instead");
      parentAuthor = parent.authorId;
    }
    const [row] = await tx
      .insert(comments)
      .values({ postId, parentId: parentId ?? null, authorId: viewer.id, content })
      .returning({ id: comments.id });
    const excerpt = content.replace(/\s+/g, " ").trim().slice(0, 140);
    const reply = { actorId: viewer.id, communityId: access.community.id, type: "post_reply" as const, postId };
    const data = { comment_id: row.id };
    // The one replied to hears "replied to your comment"; the post's author, if someone else, "commented".
    if (parentAuthor) {
      await notify(tx, {
        ...reply,
        recipients: [parentAuthor],
        title: "{actor} replied to your comment",
        body: excerpt,
        data,
      });
    }
    if (access.post.author_id !== parentAuthor) {
      await notify(tx, {
        ...reply,
        recipients: [access.post.author_id],
        title: "{actor} commented on your post",
        body: excerpt,
        data,
      });
    }
    const res = await tx.execute<CommentRow>(sql`
      SELECT c.id, c.post_id, c.parent_id, c.content, c.likes_count, c.is_edited, false AS deleted, false AS hidden,
             c.created_at,
             ${AUTHOR} AS author,
             false AS liked
        FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.id = ${row.id}`);
    // The post's row last, just before the commit: from its update to the commit every other new
    // comment on the post waits for it (comments_count), so nothing else runs between.
    await tx
      .update(posts)
      .set({ commentsCount: sql`${posts.commentsCount} + 1` })
      .where(eq(posts.id, postId));
    return toDto(res.rows[0]);
  });
  // The post's anonymous page shows comments_count.
  forgetPostPage(ctx, access.community.id, postId);
  return created;
}

/**
 * The comment with its post's access (the comment must belong to a post the viewer can see; one
 * hidden pending review opens only for its author and moderators).
 */
async function requireComment(ctx: AppContext, viewer: Viewer, commentId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(commentId)) throw commentNotFound();
  const [c] = await ctx.db
    .select({
      id: comments.id,
      postId: comments.postId,
      authorId: comments.authorId,
      deletedAt: comments.deletedAt,
      hiddenAt: comments.hiddenAt,
    })
    .from(comments)
    .where(eq(comments.id, commentId));
  if (!c || c.deletedAt) throw commentNotFound();
  const access = await requirePost(ctx.db, c.postId, viewer.id).catch(() => {
    throw commentNotFound();
  });
  if (c.hiddenAt && c.authorId !== viewer.id && !can(access.role, "moderate_posts")) throw commentNotFound();
  return { comment: c, access };
}

export async function updateComment({
  ctx,
  viewer,
  commentId,
  content,
}: {
  ctx: AppContext;
  viewer: Viewer;
  commentId: string;
  content: string;
}) {
  const { comment, access } = await requireComment(ctx, viewer, commentId);
  // Like a post (SPEC §6 edit_own_post): the author, while still a member who may write there.
  if (comment.authorId !== viewer.id || !can(access.role, "edit_own_post")) {
    throw new AppError("FORBIDDEN", MSG.insufficientPermissions);
  }
  await ctx.db
    .update(comments)
    .set({ content, isEdited: true, updatedAt: new Date() })
    .where(eq(comments.id, commentId));
  return { id: commentId, content, is_edited: true };
}

/** Your own comments (delete_own_post, as for posts); moderators and up delete any. */
export async function deleteComment({
  ctx,
  viewer,
  commentId,
}: {
  ctx: AppContext;
  viewer: Viewer;
  commentId: string;
}) {
  const { comment, access } = await requireComment(ctx, viewer, commentId);
  const own = comment.authorId === viewer.id && can(access.role, "delete_own_post");
  if (!own && !can(access.role, "delete_any_post")) {
    throw new AppError("FORBIDDEN", MSG.insufficientPermissions);
  }
  await ctx.db.transaction(async (tx) => {
    const gone = await tx
      .update(comments)
      .set({ deletedAt: new Date() })
      .where(and(eq(comments.id, commentId), sql`${comments.deletedAt} IS NULL`))
      .returning({ id: comments.id });
    if (gone.length) {
      await tx
        .update(posts)
        .set({ commentsCount: sql`GREATEST(${posts.commentsCount} - 1, 0)` })
        .where(eq(posts.id, comment.postId));
    }
  });
  forgetPostPage(ctx, access.community.id, comment.postId);
}

/** Like toggle on a comment (counts toward the author's leaderboard score). */
export async function toggleCommentLike({
  ctx,
  viewer,
  commentId,
}: {
  ctx: AppContext;
  viewer: Viewer;
  commentId: string;
}) {
  const { access, comment } = await requireComment(ctx, viewer, commentId);
  const toggle = (db: Queryable, appAnnounces: boolean) =>
    db
      .execute<{ toggled: number[] | null }>(
        sql`SELECT hearth_toggle_comment_like(${commentId}::uuid, ${viewer.id}, ${appAnnounces}) AS toggled`,
      )
      .then((res) => res.rows[0]?.toggled ?? null);
  let toggled: number[] | null;
  if (access.role) {
    // A member's toggle is one statement that commits on its own (migration 0036); the author's
    // points are announced to the other processes by this one after it, with other toggles
    // (lib/announcer.ts, decision 0028).
    toggled = await toggle(ctx.db, true);
    if (toggled && comment.authorId && comment.authorId !== viewer.id)
      ctx.announcer.announce(MEMBER_CHANNEL, memberScope(access.community.id, comment.authorId));
  } else {
    // Someone not yet a member joins by liking: the membership and the like are one, announced by
    // the database's triggers.
    toggled = await ctx.db.transaction(async (tx) => {
      await roleForTakingPart(tx, access.community, access.role, viewer.id);
      return toggle(tx, false);
    });
  }
  // The comment went between the check and the toggle.
  if (!toggled) throw commentNotFound();
  const result = { liked: toggled[0] === 1, likes_count: toggled[1] };
  // The author's points moved (and the liker may have joined): read afresh here at once.
  forgetMembers(ctx, access.community.id, [comment.authorId, viewer.id]);
  return result;
}
