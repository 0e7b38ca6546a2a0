import { Suspense, useState } from "react";
import { lazyPart } from "#web/lib/lazy-part";
import { can, type CommunityRole } from "#shared/roles";
import type { FeedPost } from "../api/post-keys";
import type { ComposerCategory } from "./post-composer";

// The menu and its dialogs (Radix, the edit form) load only for someone who may use them.
const PostMenuContent = lazyPart("PostMenuContent", () =>
  import("./post-menu-content").then((m) => ({ default: m.PostMenuContent })),
);

/** What the viewer may do with a post, from their role and whether they wrote it (SPEC §6). */
export function postPermissions(post: FeedPost, role: CommunityRole | null, viewerId: string | null) {
  const own = viewerId !== null && post.author?.user_id === viewerId;
  const moderator = can(role, "moderate_posts");
  return {
    edit: own && can(role, "edit_own_post"),
    pin: moderator && post.is_approved,
    delete: (own && can(role, "delete_own_post")) || can(role, "delete_any_post"),
    warn: moderator && !own && post.author !== null,
    // Members report what others wrote (a reader who has not joined cannot).
    report: viewerId !== null && role !== null && !own && post.author !== null,
  };
}

export type PostMenuProps = {
  post: FeedPost;
  role: CommunityRole | null;
  viewerId: string | null;
  categories: readonly ComposerCategory[];
  authorName: string;
  onDeleted?: () => void;
  /** Opens the menu as it mounts (its code loaded on the first click of the stand-in button). */
  defaultOpen?: boolean;
};

const triggerClasses =
  "-mt-1 -mr-2 flex size-9 shrink-0 cursor-pointer items-center justify-center rounded-full text-stone-500 transition-colors hover:bg-stone-100 hover:text-stone-800 data-[state=open]:bg-stone-100 data-[state=open]:text-stone-800";

/**
 * The ⋯ menu of a post: Edit Post and Delete Post for its author; Pin Post / Unpin Post, Delete
 * Post and Warn User for owners, admins and moderators; Report for anyone else signed in.
 */
export function PostMenu(props: PostMenuProps) {
  const allowed = postPermissions(props.post, props.role, props.viewerId);
  const [wanted, setWanted] = useState(false);
  const manage = allowed.edit || allowed.pin || allowed.delete || allowed.warn;
  if (!manage && !allowed.report) return null;
  // Most members may only report: the menu's code loads when they first open it.
  if (!manage && !wanted) {
    return (
      <button type="button" aria-label="Post options" className={triggerClasses} onClick={() => setWanted(true)}>
        {/* Lucide's ellipsis, drawn here: an icon import on this eager path would regroup the icon chunks. */}
        <svg viewBox="0 0 24 24" fill="currentColor" className="size-5" aria-hidden="true">
          <circle cx="5" cy="12" r="2" />
          <circle cx="12" cy="12" r="2" />
          <circle cx="19" cy="12" r="2" />
        </svg>
      </button>
    );
  }
  return (
    <Suspense fallback={<span className="-mt-1 -mr-2 size-9 shrink-0" aria-hidden="true" />}>
      <PostMenuContent {...props} defaultOpen={!manage} />
    </Suspense>
  );
}

export { triggerClasses as postMenuTriggerClasses };
