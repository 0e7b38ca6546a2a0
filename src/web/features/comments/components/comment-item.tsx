import { Heart, MessageSquareReply, Trash2 } from "lucide-react";
import { lazyPart } from "#web/lib/lazy-part";
import { type ReactNode, Suspense } from "react";
import { Link } from "react-router";
import { TimeAgo } from "#web/components/ui/time-ago";
import { Avatar } from "#web/components/ui/avatar";
import { LevelAvatar } from "#web/features/levels";
import { cn } from "#web/lib/cn";
import { HIDDEN_PENDING_REVIEW } from "#shared/posts";
import type { Comment } from "../api/get-comments";
import { CommentForm } from "./comment-form";

/** Top-level avatars shrink on phones so the text keeps its width. */
const avatarFit = "max-sm:size-8 max-sm:text-xs";

export const commentAnchorId = (commentId: string) => `comment-${commentId}`;

export const commentAuthorName = (comment: Comment) =>
  comment.author?.full_name || comment.author?.username || "Former member";

/** One comment or reply: who, when, the text, and what the viewer may do with it. */
// The ⋯ menu (Radix) loads only where someone may edit or delete a comment.
const CommentMenu = lazyPart("CommentMenu", () => import("./comment-menu").then((m) => ({ default: m.CommentMenu })));

export function CommentItem({
  comment,
  isReply,
  mayEdit,
  mayDelete,
  mayReport = false,
  editing,
  liking,
  onLike,
  onReply,
  onStartEdit,
  onCancelEdit,
  onSaveEdit,
  onDelete,
  children,
  levelNames,
}: {
  comment: Comment;
  isReply: boolean;
  mayEdit: boolean;
  mayDelete: boolean;
  /** Signed in, and not the author. */
  mayReport?: boolean;
  editing: boolean;
  liking: boolean;
  onLike: () => void;
  /** Absent when replies are closed (a pending post, or a viewer who may not comment). */
  onReply?: () => void;
  onStartEdit: () => void;
  onCancelEdit: () => void;
  onSaveEdit: (content: string) => Promise<unknown>;
  onDelete: () => void;
  /** Replies and the reply box, under a top-level comment. */
  children?: ReactNode;
  /** The community's level names, for the author's level badge. */
  levelNames?: readonly string[] | null;
}) {
  if (comment.deleted) {
    return (
      <article id={commentAnchorId(comment.id)} aria-label="Deleted comment" className="scroll-mt-24">
        <div className="flex items-start gap-3">
          <span
            className={cn(
              "flex shrink-0 items-center justify-center rounded-full bg-stone-100 text-stone-400 ring-1 ring-stone-200",
              isReply ? "size-8" : "size-8 sm:size-10",
            )}
            aria-hidden="true"
          >
            <Trash2 className="size-4" />
          </span>
          <p className="mt-1.5 rounded-2xl border border-dashed border-stone-300 px-4 py-2 text-sm text-stone-600 italic">
            This comment was deleted
          </p>
        </div>
        {children}
      </article>
    );
  }

  const name = commentAuthorName(comment);
  const profileHref = comment.author ? `/u/${encodeURIComponent(comment.author.username)}` : null;
  const nameId = `${commentAnchorId(comment.id)}-author`;
  const hasMenu = mayEdit || mayDelete || mayReport;

  return (
    <article id={commentAnchorId(comment.id)} aria-labelledby={nameId} className="scroll-mt-24">
      <div className="flex items-start gap-3">
        {profileHref ? (
          <LevelAvatar level={comment.author?.level} names={levelNames} size={isReply ? "sm" : "md"}>
            <Link to={profileHref} tabIndex={-1} aria-hidden="true" className="shrink-0">
              <Avatar src={comment.author?.avatar_url} name={name} size={isReply ? "sm" : "md"} className={avatarFit} />
            </Link>
          </LevelAvatar>
        ) : (
          <Avatar src={null} name={name} size={isReply ? "sm" : "md"} className={avatarFit} />
        )}
        <div className="min-w-0 flex-1">
          {editing ? (
            <CommentForm
              label="Edit your comment"
              placeholder="Write a comment..."
              submitLabel="Save"
              initial={comment.content}
              autoFocus
              onSubmit={onSaveEdit}
              onCancel={onCancelEdit}
              failureMessage="Failed to save your comment. Please try again."
            />
          ) : (
            <>
              <div className="rounded-2xl rounded-tl-md bg-stone-100/80 px-3.5 py-2.5 sm:px-4">
                <div className="flex items-start gap-2">
                  <p className="min-w-0 flex-1 text-sm">
                    <span id={nameId} className="font-semibold text-stone-900">
                      {profileHref ? (
                        <Link to={profileHref} className="hover:underline">
                          {name}
                        </Link>
                      ) : (
                        name
                      )}
                    </span>
                    <span className="text-stone-600">
                      <span aria-hidden="true"> · </span>
                      <TimeAgo date={comment.created_at} />
                      {comment.hidden && (
                        <span className="ml-1.5 inline-flex rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300">
                          {HIDDEN_PENDING_REVIEW}
                        </span>
                      )}
                      {comment.is_edited && (
                        <>
                          <span aria-hidden="true"> · </span>
                          <span>edited</span>
                        </>
                      )}
                    </span>
                  </p>
                  {hasMenu && (
                    <Suspense fallback={<span className="-mt-1 -mr-2 size-7 shrink-0" aria-hidden="true" />}>
                      <CommentMenu
                        authorName={name}
                        onEdit={mayEdit ? onStartEdit : undefined}
                        onDelete={mayDelete ? onDelete : undefined}
                        reportId={mayReport ? comment.id : undefined}
                      />
                    </Suspense>
                  )}
                </div>
                <p className="mt-0.5 leading-relaxed break-words whitespace-pre-line text-stone-800">
                  {comment.content}
                </p>
              </div>
              <div className="mt-1 flex items-center gap-1 pl-1 text-sm">
                <button
                  type="button"
                  onClick={onLike}
                  disabled={liking}
                  aria-pressed={comment.liked}
                  className={cn(
                    "inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-full px-2.5 font-semibold transition-colors disabled:cursor-wait",
                    comment.liked
                      ? "text-rose-700 hover:bg-rose-50"
                      : "text-stone-600 hover:bg-stone-100 hover:text-stone-900",
                  )}
                >
                  <Heart className={cn("size-4", comment.liked && "fill-current")} aria-hidden="true" />
                  <span className="sr-only">
                    {`Like ${name}'s comment`}
                    {comment.likes_count > 0 &&
                      `, ${comment.likes_count} ${comment.likes_count === 1 ? "like" : "likes"}`}
                  </span>
                  {comment.likes_count > 0 && (
                    <span className="tabular-nums" aria-hidden="true">
                      {comment.likes_count}
                    </span>
                  )}
                </button>
                {onReply && (
                  <button
                    type="button"
                    onClick={onReply}
                    className="inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-full px-2.5 font-semibold text-stone-600 transition-colors hover:bg-stone-100 hover:text-stone-900"
                  >
                    <MessageSquareReply className="size-4" aria-hidden="true" />
                    Reply
                    <span className="sr-only"> to {name}</span>
                  </button>
                )}
              </div>
            </>
          )}
        </div>
      </div>
      {children}
    </article>
  );
}
