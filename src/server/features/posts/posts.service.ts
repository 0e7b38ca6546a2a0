import { and, eq, sql } from "drizzle-orm";
import { LIMITS } from "../../../shared/limits";
import { MSG } from "../../../shared/messages";
import { ONBOARDING_TASKS } from "../../../shared/communities";
import { can, ROLE_RANK, type CommunityRole } from "../../../shared/roles";
import type { AppContext, Viewer } from "../../context";
import { communities, postCategories, posts } from "../../db/schema/index";
import { addMember, completeOnboardingTask, requireCommunity, requirePermission } from "../../lib/community-access";
import { AppError } from "../../lib/errors";

export type CreatePostInput = {
  content: string;
  category_id?: string | null;
  visibility?: "public" | "members" | "admins";
};

/**
 * A text post. A signed-in non-member posting in a public community joins it first (the spec's
 * auto-join, read as "joins when taking part": docs/decisions/0004-communities.md). The post is
 * approved at once unless moderation is on and the author is not the creator or a manager.
 */
export async function createPost({
  ctx,
  viewer,
  idOrSlug,
  input,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
  input: CreatePostInput;
}) {
  const content = input.content.trim();
  if (!content) throw new AppError("VALIDATION", MSG.enterContent);
  const access = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  const { community } = access;
  return ctx.db.transaction(async (tx) => {
    let role: CommunityRole | null = access.role;
    if (!role) {
      await addMember(tx, { community, userId: viewer.id });
      role = "member";
    }
    requirePermission(role, "create_post");
    if (input.category_id) {
      const [cat] = await tx
        .select({ id: postCategories.id })
        .from(postCategories)
        .where(and(eq(postCategories.id, input.category_id), eq(postCategories.communityId, community.id)));
      if (!cat) throw new AppError("VALIDATION", "Unknown category");
    }
    const approved = !community.moderationEnabled || community.createdBy === viewer.id || can(role, "moderate_posts");
    const [row] = await tx
      .insert(posts)
      .values({
        communityId: community.id,
        authorId: viewer.id,
        categoryId: input.category_id ?? null,
        content,
        type: "text",
        visibility: input.visibility ?? "public",
        isApproved: approved,
      })
      .returning({ id: posts.id, createdAt: posts.createdAt, isApproved: posts.isApproved });
    if (approved) {
      await tx
        .update(communities)
        .set({ postCount: sql`${communities.postCount} + 1` })
        .where(eq(communities.id, community.id));
    }
    if (role === "owner") {
      await completeOnboardingTask(
        tx,
        community.id,
        "first_post",
        ONBOARDING_TASKS.map((t) => t.id),
      );
    }
    return { id: row.id, is_approved: row.isApproved, created_at: row.createdAt.toISOString() };
  });
}

/** Which post visibilities a role may read: public to all who see the community, members to members, admins to managers. */
function visibleTo(role: CommunityRole | null): ("public" | "members" | "admins")[] {
  if (!role) return ["public"];
  return ROLE_RANK[role] >= ROLE_RANK.admin ? ["public", "members", "admins"] : ["public", "members"];
}

type FeedCursor = { t: string; id: string };

/** Approved posts, pinned first then newest, keyset paged (50 a page). */
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
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer?.id });
  let after: FeedCursor | null = null;
  if (cursor) {
    try {
      after = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as FeedCursor;
      if (Number.isNaN(Date.parse(after.t)) || !/^[0-9a-f-]{36}$/.test(after.id)) throw 0;
    } catch {
      throw new AppError("VALIDATION", "Invalid cursor");
    }
  }
  const limit = LIMITS.feedPageSize;
  const conditions = [
    sql`p.community_id = ${community.id}`,
    sql`p.deleted_at IS NULL`,
    sql`p.is_approved`,
    sql`p.visibility = ANY(${`{${visibleTo(role).join(",")}}`}::text[])`,
  ];
  if (categoryId) conditions.push(sql`p.category_id = ${categoryId}`);
  // Pinned posts lead the first page only; later pages continue through the unpinned ones.
  if (after)
    conditions.push(sql`NOT p.is_pinned AND (p.created_at, p.id) < (${after.t}::timestamptz, ${after.id}::uuid)`);
  const res = await ctx.db.execute<{
    id: string;
    content: string;
    type: string;
    visibility: "public" | "members" | "admins";
    is_pinned: boolean;
    is_edited: boolean;
    likes_count: number;
    comments_count: number;
    share_count: number;
    category_id: string | null;
    created_at: string;
    created_at_raw: string;
    author: { user_id: string; username: string; full_name: string; avatar_url: string | null } | null;
  }>(sql`
    SELECT p.id, p.content, p.type, p.visibility, p.is_pinned, p.is_edited, p.likes_count, p.comments_count,
           p.share_count, p.category_id, p.created_at,
           to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_raw,
           (SELECT json_build_object('user_id', u.user_id, 'username', u.username, 'full_name', u.full_name,
                                     'avatar_url', u.avatar_url)
              FROM user_profiles u WHERE u.user_id = p.author_id) AS author
      FROM posts p
     WHERE ${sql.join(conditions, sql` AND `)}
     ORDER BY p.is_pinned DESC, p.created_at DESC, p.id DESC
     LIMIT ${limit + 1}`);
  const rows = res.rows.slice(0, limit);
  const last = rows.at(-1);
  return {
    items: rows.map(({ created_at_raw: _raw, ...r }) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
    next_cursor:
      res.rows.length > limit && last
        ? Buffer.from(JSON.stringify({ t: last.created_at_raw, id: last.id })).toString("base64url")
        : null,
  };
}
