import { sql } from "drizzle-orm";
import { MSG } from "#shared/messages";
import { can, isRole, ROLE_RANK, type CommunityRole } from "#shared/roles";
import type { Queryable } from "#server/db/client";
import type { PollData } from "#server/db/schema/index";
import { AppError } from "./errors";

type Visibility = "public" | "members" | "admins";

const postNotFound = () => new AppError("NOT_FOUND", MSG.postNotFound);

/** Which post visibilities a role may read: public to all who see the community, members to members, admins to owner and admin. */
export function visibleTo(role: CommunityRole | null): Visibility[] {
  if (!role) return ["public"];
  return ROLE_RANK[role] >= ROLE_RANK.admin ? ["public", "members", "admins"] : ["public", "members"];
}

type PostAccess = {
  post: {
    id: string;
    community_id: string;
    author_id: string;
    visibility: Visibility;
    is_approved: boolean;
    is_pinned: boolean;
    type: string;
    poll_data: PollData | null;
  };
  community: { id: string; visibility: string; created_by: string; moderation_enabled: boolean };
  role: CommunityRole | null;
};

/**
 * A post the viewer may see, with its community and the viewer's role, in one query. Anything the
 * viewer may not see (private community, visibility, someone else's pending post, deleted) answers
 * exactly like a post that does not exist.
 */
export async function requirePost(
  db: Queryable,
  postId: string,
  viewerId: string | null | undefined,
): Promise<PostAccess> {
  if (!/^[0-9a-f-]{36}$/i.test(postId)) throw postNotFound();
  const res = await db.execute<{
    id: string;
    community_id: string;
    author_id: string;
    visibility: Visibility;
    is_approved: boolean;
    is_pinned: boolean;
    type: string;
    poll_data: PollData | null;
    c_visibility: string;
    created_by: string;
    moderation_enabled: boolean;
    role: string | null;
  }>(sql`
    SELECT p.id, p.community_id, p.author_id, p.visibility, p.is_approved, p.is_pinned, p.type, p.poll_data,
           c.visibility AS c_visibility, c.created_by, c.moderation_enabled, m.role
      FROM posts p
      JOIN communities c ON c.id = p.community_id
      LEFT JOIN community_members m ON m.community_id = p.community_id AND m.user_id = ${viewerId ?? ""}
     WHERE p.id = ${postId} AND p.deleted_at IS NULL`);
  const r = res.rows[0];
  if (!r) throw postNotFound();
  const role = isRole(r.role) ? r.role : null;
  if (r.c_visibility === "private" && !role) throw postNotFound();
  if (!visibleTo(role).includes(r.visibility)) throw postNotFound();
  if (!r.is_approved && r.author_id !== viewerId && !can(role, "moderate_posts")) throw postNotFound();
  return {
    post: {
      id: r.id,
      community_id: r.community_id,
      author_id: r.author_id,
      visibility: r.visibility,
      is_approved: r.is_approved,
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
