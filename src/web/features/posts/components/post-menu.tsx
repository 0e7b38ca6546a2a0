import { lazy, Suspense } from "react";
import { can, type CommunityRole } from "#shared/roles";
import type { FeedPost } from "../api/post-keys";
import type { ComposerCategory } from "./post-composer";

// The menu and its dialogs (Radix, the edit form) load only for someone who may use them.
const PostMenuContent = lazy(() => import("./post-menu-content").then((m) => ({ default: m.PostMenuContent })));

/** What the viewer may do with a post, from their role and whether they wrote it (SPEC §6). */
export function postPermissions(post: FeedPost, role: CommunityRole | null, viewerId: string | null) {
  const own = viewerId !== null && post.author?.user_id === viewerId;
  const moderator = can(role, "moderate_posts");
  return {
    edit: own && can(role, "edit_own_post"),
    pin: moderator && post.is_approved,
    delete: (own && can(role, "delete_own_post")) || can(role, "delete_any_post"),
    warn: moderator && !own && post.author !== null,
  };
}

export type PostMenuProps = {
  post: FeedPost;
  role: CommunityRole | null;
  viewerId: string | null;
  categories: readonly ComposerCategory[];
  authorName: string;
  onDeleted?: () => void;
};

/**
 * The ⋯ menu of a post: Edit Post and Delete Post for its author; Pin Post / Unpin Post, Delete
 * Post and Warn User for owners, admins and moderators. Nothing when none applies.
 */
export function PostMenu(props: PostMenuProps) {
  const allowed = postPermissions(props.post, props.role, props.viewerId);
  if (!allowed.edit && !allowed.pin && !allowed.delete && !allowed.warn) return null;
  return (
    <Suspense fallback={<span className="-mt-1 -mr-2 size-9 shrink-0" aria-hidden="true" />}>
      <PostMenuContent {...props} />
    </Suspense>
  );
}
