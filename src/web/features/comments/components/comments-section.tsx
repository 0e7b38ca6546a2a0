import { Clock, LogIn, MessageCircle, RotateCw } from "lucide-react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { toast } from "#web/lib/toast";
import { can, type CommunityRole } from "#shared/roles";
import { ConfirmDialog } from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { errorMessage } from "#web/lib/api";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { useMe } from "#web/lib/session";
import { useCreateComment } from "../api/create-comment";
import { useDeleteComment } from "../api/delete-comment";
import { type Comment, useComments } from "../api/get-comments";
import { useToggleCommentLike } from "../api/toggle-comment-like";
import { useUpdateComment } from "../api/update-comment";
import { CommentForm } from "./comment-form";
import { commentAnchorId, commentAuthorName, CommentItem } from "./comment-item";
import { LoadingRegion } from "#web/components/ui/load-states";
import { useLevelNames } from "#web/features/levels";
import { FormMessage } from "#web/components/ui/form-message";

type ReplyTarget = { parentId: string; mention: string | null };

/** Brings a comment just written into view, without a jump when motion is reduced. */
function revealComment(commentId: string) {
  window.setTimeout(() => {
    const element = document.getElementById(commentAnchorId(commentId));
    if (!element) return;
    const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    element.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "nearest" });
  }, 60);
}

/**
 * The thread under a post: a composer, then comments oldest first with their replies indented
 * (one level). Like, reply, edit and delete follow the viewer's role; signed-out visitors get
 * the sign-in dialog and come back here.
 */
export function CommentsSection({
  postId,
  approved,
  viewerRole,
  fallbackCount,
  communityId,
}: {
  postId: string;
  /** The post's community, for the level names of the authors' badges. */
  communityId?: string;
  /** A post waiting for approval takes no comments yet. */
  approved: boolean;
  viewerRole: CommunityRole | null;
  /** The post's comments_count, shown while the thread loads. */
  fallbackCount: number;
}) {
  const me = useMe();
  const levelNames = useLevelNames(communityId);
  const user = me.data?.user ?? null;
  const profile = me.data?.profile ?? null;
  const signedOut = me.isSuccess && !user;
  // A signed-in non-member of a public community joins by taking part; guests only read.
  const mayComment = Boolean(user) && (viewerRole === null || can(viewerRole, "create_post")) && approved;
  const mayModerate = can(viewerRole, "delete_any_post");

  const comments = useComments(postId);
  const create = useCreateComment(postId);
  const update = useUpdateComment(postId);
  const remove = useDeleteComment(postId);
  const like = useToggleCommentLike(postId);

  // A link to one comment (#comment-<id>, a search result) opens the post there once the thread is in.
  const loaded = comments.isSuccess;
  useEffect(() => {
    const id = location.hash.slice(1);
    if (loaded && id.startsWith("comment-")) document.getElementById(id)?.scrollIntoView({ block: "center" });
  }, [loaded]);

  const [replyTo, setReplyTo] = useState<ReplyTarget | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Comment | null>(null);

  const { topLevel, repliesOf, visibleCount } = useMemo(() => {
    const list = comments.data ?? [];
    const replies = new Map<string, Comment[]>();
    for (const c of list) {
      if (!c.parent_id) continue;
      const siblings = replies.get(c.parent_id);
      if (siblings) siblings.push(c);
      else replies.set(c.parent_id, [c]);
    }
    return {
      topLevel: list.filter((c) => !c.parent_id),
      repliesOf: replies,
      visibleCount: list.filter((c) => !c.deleted).length,
    };
  }, [comments.data]);

  const redirect = `/post/${encodeURIComponent(postId)}`;
  const askToSignIn = (message: string) => openAuthDialog({ mode: "login", redirect, message });

  const onLike = (comment: Comment) => {
    if (!user) return askToSignIn("Sign in to like comments.");
    like.mutate(comment.id, {
      onError: (error) => toast.error(errorMessage(error, "Failed to like the comment. Please try again.")),
    });
  };

  const onReply = (parent: Comment, to: Comment) => {
    if (!user) return askToSignIn("Sign in to reply to comments.");
    setEditingId(null);
    // Replies go one level deep: answering a reply writes under its comment, naming whom it answers.
    const mention = to.id !== parent.id && to.author ? `@${to.author.username} ` : null;
    setReplyTo({ parentId: parent.id, mention });
  };

  const confirmDelete = () => {
    const target = deleting;
    if (!target) return;
    remove.mutate(target.id, {
      onSuccess: () => {
        toast.success("Comment deleted.");
        if (editingId === target.id) setEditingId(null);
      },
      onError: (error) =>
        toast.error(errorMessage(error, "Failed to delete the comment. Please try again.", ["FORBIDDEN", "NOT_FOUND"])),
    });
  };

  const renderComment = (comment: Comment, parent: Comment | null) => {
    const isOwn = Boolean(user) && comment.author?.user_id === user?.id;
    // A reply under a deleted comment cannot be answered: the thread it belongs to is closed.
    const replyParent = parent ?? comment;
    const mayReply = approved && !replyParent.deleted && (signedOut || mayComment);
    return (
      <CommentItem
        comment={comment}
        isReply={parent !== null}
        levelNames={levelNames}
        mayEdit={isOwn && can(viewerRole, "edit_own_post")}
        mayDelete={(isOwn && can(viewerRole, "delete_own_post")) || mayModerate}
        mayReport={Boolean(user) && viewerRole !== null && !isOwn && comment.author !== null}
        editing={editingId === comment.id}
        liking={like.isPending && like.variables === comment.id}
        onLike={() => onLike(comment)}
        onReply={mayReply ? () => onReply(replyParent, comment) : undefined}
        onStartEdit={() => {
          setReplyTo(null);
          setEditingId(comment.id);
        }}
        onCancelEdit={() => setEditingId(null)}
        onSaveEdit={async (content) => {
          await update.mutateAsync({ commentId: comment.id, content });
          setEditingId(null);
          toast.success("Comment updated.");
        }}
        onDelete={() => setDeleting(comment)}
      >
        {parent === null && (
          <Replies
            replies={repliesOf.get(comment.id) ?? []}
            render={(reply) => renderComment(reply, comment)}
            replyBox={
              replyTo?.parentId === comment.id && mayComment ? (
                <CommentForm
                  key={`${comment.id}:${replyTo.mention ?? ""}`}
                  label={`Reply to ${commentAuthorName(comment)}`}
                  placeholder="Write a reply..."
                  submitLabel="Reply"
                  initial={replyTo.mention ?? ""}
                  autoFocus
                  avatar={
                    profile ? { src: profile.avatar_url, name: profile.full_name || profile.username } : undefined
                  }
                  onCancel={() => setReplyTo(null)}
                  failureMessage="Failed to post your reply. Please try again."
                  onSubmit={async (content) => {
                    const created = await create.mutateAsync({ content, parent_id: comment.id });
                    setReplyTo(null);
                    revealComment(created.id);
                  }}
                />
              ) : null
            }
          />
        )}
      </CommentItem>
    );
  };

  const deletingOthers = deleting !== null && deleting.author?.user_id !== user?.id;

  return (
    <section
      id="comments"
      aria-labelledby="comments-heading"
      className="mt-6 scroll-mt-24 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-stone-200 sm:p-6"
    >
      <h2 id="comments-heading" className="flex items-center gap-2 text-lg font-bold tracking-tight text-stone-900">
        Comments
        <span className="rounded-full bg-stone-100 px-2 py-0.5 text-sm font-semibold text-stone-700 tabular-nums">
          {comments.data ? visibleCount : fallbackCount}
        </span>
      </h2>

      <div className="mt-4">
        {!approved ? (
          <Note icon={Clock}>Comments open once this post is approved.</Note>
        ) : mayComment ? (
          <CommentForm
            label="Write a comment"
            placeholder="Write a comment..."
            submitLabel="Post"
            avatar={profile ? { src: profile.avatar_url, name: profile.full_name || profile.username } : undefined}
            failureMessage="Failed to post your comment. Please try again."
            onSubmit={async (content) => {
              const created = await create.mutateAsync({ content });
              revealComment(created.id);
            }}
          />
        ) : signedOut ? (
          <div className="flex flex-col items-start gap-3 rounded-xl bg-stone-50 px-4 py-3.5 ring-1 ring-stone-200 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-stone-700">Join the conversation: sign in to comment.</p>
            <Button variant="secondary" size="sm" onClick={() => askToSignIn("Sign in to comment on this post.")}>
              <LogIn className="size-4" aria-hidden="true" />
              Log in to comment
            </Button>
          </div>
        ) : user ? (
          <Note icon={MessageCircle}>Guests can read the conversation but not comment.</Note>
        ) : null}
      </div>

      <div className="mt-6">
        {comments.isPending ? (
          <LoadingRegion label="Loading comments" className="space-y-5">
            {[0, 1].map((n) => (
              <div key={n} className="flex gap-3" aria-hidden="true">
                <div className="size-10 shrink-0 animate-pulse rounded-full bg-stone-200" />
                <div className="h-16 flex-1 animate-pulse rounded-2xl bg-stone-100" />
              </div>
            ))}
          </LoadingRegion>
        ) : comments.isError ? (
          <FormMessage tone="error">
            <p>Failed to load comments.</p>
            <Button variant="secondary" size="sm" className="mt-2" onClick={() => void comments.refetch()}>
              <RotateCw className="size-4" aria-hidden="true" />
              Try again
            </Button>
          </FormMessage>
        ) : topLevel.length === 0 ? (
          <div className="py-6 text-center">
            <span className="mx-auto flex size-11 items-center justify-center rounded-full bg-brand-50 text-brand-700">
              <MessageCircle className="size-5" aria-hidden="true" />
            </span>
            <p className="mt-3 font-semibold text-stone-900">No comments yet</p>
            <p className="mt-1 text-sm text-stone-600">
              {mayComment ? "Be the first to share your thoughts." : "When people comment, it will show up here."}
            </p>
          </div>
        ) : (
          <ul className="space-y-5" aria-label="Comments">
            {topLevel.map((comment) => (
              <li key={comment.id}>{renderComment(comment, null)}</li>
            ))}
          </ul>
        )}
      </div>

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this comment?"
        description={
          deletingOthers && deleting
            ? `You are removing ${commentAuthorName(deleting)}'s comment as a moderator. This cannot be undone.`
            : "Your comment will be removed. This cannot be undone."
        }
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </section>
  );
}

function Replies({
  replies,
  render,
  replyBox,
}: {
  replies: Comment[];
  render: (reply: Comment) => ReactNode;
  replyBox: ReactNode;
}) {
  if (replies.length === 0 && !replyBox) return null;
  return (
    <div className="mt-3 ml-4 space-y-4 border-l-2 border-stone-100 pl-3 sm:ml-[3.25rem] sm:pl-4">
      {replies.length > 0 && (
        <ul className="space-y-4" aria-label="Replies">
          {replies.map((reply) => (
            <li key={reply.id}>{render(reply)}</li>
          ))}
        </ul>
      )}
      {replyBox}
    </div>
  );
}

function Note({ icon: Icon, children }: { icon: typeof Clock; children: ReactNode }) {
  return (
    <p className="flex items-center gap-2.5 rounded-xl bg-stone-50 px-4 py-3 text-sm text-stone-700 ring-1 ring-stone-200">
      <Icon className="size-4 shrink-0 text-stone-500" aria-hidden="true" />
      {children}
    </p>
  );
}
