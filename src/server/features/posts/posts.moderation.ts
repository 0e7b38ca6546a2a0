import { and, eq, sql } from "drizzle-orm";
import type { AppContext, Viewer } from "#server/context";
import { posts, userWarnings } from "#server/db/schema/index";
import { requireCommunity, requirePermission } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { postChange, requireApproved, requirePost } from "#server/lib/post-access";
import { forgetFeed } from "./posts.feed";
import { loadPost, postColumns, toPostDto, type PostRow } from "./posts.queries";
import { announce, notifyPostAuthor } from "./posts.service";

// Moderation (owner, admin, moderator): pins, approvals, warnings.

const MAX_PINNED = 5;

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
  if (pinned) requireApproved(access);
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
  forgetFeed(ctx, postChange(access));
  return loadPost(ctx.db, postId, viewer.id);
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
      // Until now only its author and moderators could see it: for everyone else it is new.
      await announce(tx, access, "post_created");
      await notifyPostAuthor(tx, access, viewer.id, {
        type: "post_approved",
        title: "Your post was approved",
        body: "It is now visible in the community.",
      });
    } else {
      await tx.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, postId));
    }
  });
  forgetFeed(ctx, postChange(access));
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
    await notifyPostAuthor(tx, access, viewer.id, {
      type: "other",
      title: "A moderator warned you about a post",
      body: reason || "Please review the community's rules.",
      data: { kind: "warning" },
    });
  });
  return { warned: true };
}
