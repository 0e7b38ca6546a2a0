import { sql, type SQL } from "drizzle-orm";
import { MSG } from "#shared/messages";
import { POST_VISIBILITIES, type PostVisibility } from "#shared/posts";
import type { PollData } from "#shared/posts.schemas";
import { REPORT_MESSAGES } from "#shared/reports";
import { can, COMMUNITY_ROLES, isRole, mayViewPost, type CommunityRole } from "#shared/roles";
import type { Queryable } from "#server/db/client";
import { AppError } from "./errors";
import type { FeedChange } from "./public-cache";

/** The answer to a post the viewer may not see: the same as to one that does not exist. */
export const postNotFound = () => new AppError("NOT_FOUND", MSG.postNotFound);

/** The condition on a role (an SQL expression, NULL for a non-member) under which mayViewPost allows a visibility. */
function roleCondition(v: PostVisibility): string | null {
  if (mayViewPost(null, v)) return null;
  const roles = COMMUNITY_ROLES.filter((role) => mayViewPost(role, v));
  if (roles.length === COMMUNITY_ROLES.length) return "IS NOT NULL";
  return `IN (${roles.map((role) => `'${role}'`).join(", ")})`;
}
const ROLE_CONDITIONS = POST_VISIBILITIES.map((v) => [v, roleCondition(v)] as const);

/**
 * `mayViewPost` (#shared/roles) in SQL: whether a viewer whose role in the post's community is
 * `role` (NULL: not a member) may read a post of visibility `visibility`. Every query that picks
 * posts for a viewer uses it, so the SQL and the checks in code never part:
 * `(p.visibility = 'public' OR (p.visibility = 'members' AND m.role IS NOT NULL) OR (…'admins' AND m.role IN ('owner', 'admin')))`.
 */
export function postVisibleToRole(visibility: SQL, role: SQL): SQL {
  const cases = ROLE_CONDITIONS.map(([v, condition]) =>
    condition === null
      ? sql`${visibility} = ${sql.raw(`'${v}'`)}`
      : sql`(${visibility} = ${sql.raw(`'${v}'`)} AND ${role} ${sql.raw(condition)})`,
  );
  return sql`(${sql.join(cases, sql` OR `)})`;
}

/**
 * Whether a post belongs in a list a viewer reads (the feed's rule), in SQL: its community is public
 * or the viewer is a member; its visibility allows their role; it is not deleted; it is approved and
 * not hidden pending review (issue 22), unless it is the viewer's own. Moderators reach held posts
 * through their queues and requirePost, not through lists. `p` is the posts alias, `role` the
 * viewer's role there (NULL when not a member), `communityVisibility` the community's visibility.
 * Search (issue 21) and every list that picks posts for a viewer use it: no query keeps a copy.
 */
export function postReadable(p: string, role: SQL, communityVisibility: SQL, viewerId: string | SQL | null): SQL {
  const col = (name: string) => sql.raw(`${p}.${name}`);
  // viewerId: the viewer's id, or an SQL expression naming them (a column of the query).
  const own = viewerId ? sql`${col("author_id")} = ${viewerId}` : sql`false`;
  return sql`(${col("deleted_at")} IS NULL
    AND (${communityVisibility} <> 'private' OR ${role} IS NOT NULL)
    AND ${postVisibleToRole(col("visibility"), role)}
    AND ((${col("is_approved")} AND ${col("hidden_at")} IS NULL) OR ${own}))`;
}

type AccessPost = {
  id: string;
  community_id: string;
  author_id: string;
  visibility: PostVisibility;
  is_approved: boolean;
  /** Hidden pending review after reports (issue 22). */
  is_hidden: boolean;
  is_pinned: boolean;
  type: string;
  poll_data: PollData | null;
};

export type PostAccess = {
  post: AccessPost;
  community: { id: string; visibility: string; created_by: string; moderation_enabled: boolean };
  role: CommunityRole | null;
};

/** The change to announce to this process's caches after a write to the post (posts.feed.ts forgetFeed). */
export const postChange = (access: PostAccess): FeedChange => ({
  community: access.community.id,
  post: { id: access.post.id, created: false, author: access.post.author_id },
});

/**
 * Whether a viewer whose role in the post's community is `role` may read the (not deleted) post: the
 * community is public or they are a member; its visibility allows their role; it is approved and not
 * hidden pending review, unless it is their own or they moderate the community. requirePost and the
 * kept post pages (posts.feed.ts) decide with it; postReadable is the same rule for lists, in SQL.
 */
export function mayReadPost(
  post: Pick<AccessPost, "visibility" | "is_approved" | "is_hidden" | "author_id">,
  communityVisibility: string,
  role: CommunityRole | null,
  viewerId: string | null | undefined,
): boolean {
  if (communityVisibility === "private" && !role) return false;
  if (!mayViewPost(role, post.visibility)) return false;
  return (post.is_approved && !post.is_hidden) || post.author_id === viewerId || can(role, "moderate_posts");
}

/** The row postAccessSql reads. */
export type PostAccessRow = AccessPost & {
  c_visibility: string;
  created_by: string;
  moderation_enabled: boolean;
  role: string | null;
};

/**
 * The post (not deleted), its community and the viewer's role there, as one row, inside a statement
 * (requirePost's read; a write that checks access in its own statement reads the same).
 */
export const postAccessSql = (postId: string, viewerId: string | null | undefined) => sql`
    SELECT p.id, p.community_id, p.author_id, p.visibility, p.is_approved, p.hidden_at IS NOT NULL AS is_hidden,
           p.is_pinned, p.type, p.poll_data,
           c.visibility AS c_visibility, c.created_by, c.moderation_enabled, m.role
      FROM posts p
      JOIN communities c ON c.id = p.community_id
      LEFT JOIN community_members m ON m.community_id = p.community_id AND m.user_id = ${viewerId ?? ""}
     WHERE p.id = ${postId} AND p.deleted_at IS NULL`;

/** Refuses, as not found, what cannot be a post's id, before any statement. */
export function checkPostId(postId: string): void {
  if (!/^[0-9a-f-]{36}$/i.test(postId)) throw postNotFound();
}

/**
 * The access postAccessSql's row gives: anything the viewer may not see (private community,
 * visibility, someone else's pending post or post hidden pending review, deleted, no row) answers
 * exactly like a post that does not exist.
 */
export function postAccessOf(r: PostAccessRow | undefined, viewerId: string | null | undefined): PostAccess {
  if (!r) throw postNotFound();
  const role = isRole(r.role) ? r.role : null;
  if (!mayReadPost(r, r.c_visibility, role, viewerId)) throw postNotFound();
  return {
    post: {
      id: r.id,
      community_id: r.community_id,
      author_id: r.author_id,
      visibility: r.visibility,
      is_approved: r.is_approved,
      is_hidden: r.is_hidden,
      is_pinned: r.is_pinned,
      type: r.type,
      poll_data: r.poll_data,
    },
    community: {
      id: r.community_id,
      visibility: r.c_visibility,
      created_by: r.created_by,
      moderation_enabled: r.moderation_enabled,
    },
    role,
  };
}

/**
 * A post the viewer may see, with its community and the viewer's role, in one query. Anything the
 * viewer may not see answers exactly like a post that does not exist (postAccessOf). A pending or
 * hidden post opens for its author and the community's moderators.
 */
export async function requirePost(
  db: Queryable,
  postId: string,
  viewerId: string | null | undefined,
): Promise<PostAccess> {
  checkPostId(postId);
  const res = await db.execute<PostAccessRow>(postAccessSql(postId, viewerId));
  return postAccessOf(res.rows[0], viewerId);
}

/** Likes, votes, shares, pins and comments are for posts that are out (approved, not hidden pending review). */
export function requireApproved(access: PostAccess): void {
  if (!access.post.is_approved) throw new AppError("CONFLICT", MSG.postAwaitingApproval);
  if (access.post.is_hidden) throw new AppError("CONFLICT", REPORT_MESSAGES.hiddenPendingReview);
}
