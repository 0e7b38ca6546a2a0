import {
  BarChart3,
  Check,
  CircleCheck,
  Clock,
  ImageIcon,
  Link2,
  PlayCircle,
  ShieldCheck,
  Users,
  X,
} from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { toast } from "#web/lib/toast";
import { TimeAgo } from "#web/components/ui/time-ago";
import { can, isManager } from "#shared/roles";
import { ConfirmDialog } from "#web/components/ui/alert-dialog";
import { Avatar } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { errorMessage } from "#web/lib/api";
import type { CommunityView } from "#web/features/communities";
import { type PendingPost, usePendingPosts } from "../api/get-pending-posts";
import { useReviewPost } from "../api/review-post";
import { LoadingRegion } from "#web/components/ui/load-states";

const authorName = (post: PendingPost) => post.author?.full_name || post.author?.username || "Former member";

/** What a post carries besides its text, in a few words. */
function extras(post: PendingPost): { icon: typeof Check; text: string }[] {
  const list: { icon: typeof Check; text: string }[] = [];
  const images = post.media_urls.filter((m) => m.type === "image").length;
  if (images > 0) list.push({ icon: ImageIcon, text: images === 1 ? "1 image" : `${images} images` });
  if (post.type === "video") list.push({ icon: PlayCircle, text: "Video" });
  if (post.poll) {
    list.push({ icon: BarChart3, text: `Poll: ${post.poll.options.map((o) => o.text).join(" / ")}` });
  }
  if (post.link_preview) list.push({ icon: Link2, text: post.link_preview.title || post.link_preview.url });
  if (post.visibility === "members") list.push({ icon: Users, text: "Members only" });
  if (post.visibility === "admins") list.push({ icon: ShieldCheck, text: "Admins only" });
  return list;
}

/**
 * Posts waiting for approval (owner, admin, moderator): author, text, time, Approve and Reject
 * (Reject asks first). A reviewed post leaves the list at once; the figures follow.
 */
export function PendingApprovals({
  communityId,
  moderationEnabled,
}: {
  communityId: string;
  moderationEnabled: boolean;
}) {
  const pending = usePendingPosts(communityId);
  const review = useReviewPost(communityId);
  const [rejecting, setRejecting] = useState<PendingPost | null>(null);

  const decide = (post: PendingPost, approve: boolean) =>
    review.mutate(
      { postId: post.id, approve },
      {
        onSuccess: () =>
          toast.success(approve ? `Approved: ${authorName(post)}'s post is in the feed.` : "Post rejected."),
        onError: (error) =>
          toast.error(
            errorMessage(
              error,
              approve
                ? "Failed to approve the post. Please try again."
                : "Failed to reject the post. Please try again.",
              ["CONFLICT", "FORBIDDEN", "NOT_FOUND"],
            ),
          ),
      },
    );

  if (pending.isPending) {
    return (
      <LoadingRegion label="Loading pending posts" className="space-y-3">
        <div className="h-24 animate-pulse rounded-2xl bg-stone-100" />
      </LoadingRegion>
    );
  }
  if (pending.isError) {
    return (
      <FormMessage tone="error">
        {errorMessage(pending.error, "Failed to load pending posts.", ["FORBIDDEN"])}
      </FormMessage>
    );
  }
  if (pending.data.length === 0) {
    return (
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-emerald-50 text-emerald-700">
          <CircleCheck className="size-5" aria-hidden="true" />
        </span>
        <div>
          <p className="font-semibold text-stone-900">Nothing waiting for approval</p>
          <p className="mt-1 text-sm text-stone-600">
            {moderationEnabled
              ? "New posts from members wait here until a moderator approves them."
              : "Moderation is off: members' posts appear in the feed at once."}
          </p>
        </div>
      </div>
    );
  }

  return (
    <>
      <ul className="divide-y divide-stone-100" aria-label="Posts waiting for approval">
        {pending.data.map((post) => {
          const name = authorName(post);
          const deciding = review.isPending && review.variables?.postId === post.id;
          const extraList = extras(post);
          return (
            <li key={post.id} className="py-4 first:pt-0 last:pb-0">
              <article aria-label={`Post by ${name}`}>
                <div className="flex items-center gap-3">
                  <Avatar src={post.author?.avatar_url} name={name} size="sm" />
                  <p className="min-w-0 flex-1 truncate text-sm">
                    {post.author ? (
                      <Link
                        to={`/u/${encodeURIComponent(post.author.username)}`}
                        className="font-semibold text-stone-900 hover:underline"
                      >
                        {name}
                      </Link>
                    ) : (
                      <span className="font-semibold text-stone-900">{name}</span>
                    )}
                    <span className="text-stone-600">
                      <span aria-hidden="true"> · </span>
                      <TimeAgo date={post.created_at} />
                    </span>
                  </p>
                </div>
                {post.content.trim() && (
                  <p className="mt-2.5 line-clamp-6 text-sm leading-relaxed break-words whitespace-pre-line text-stone-800">
                    {post.content}
                  </p>
                )}
                {extraList.length > 0 && (
                  <ul className="mt-2 flex flex-wrap gap-1.5">
                    {extraList.map(({ icon: Icon, text }) => (
                      <li
                        key={text}
                        className="inline-flex max-w-full items-center gap-1.5 rounded-lg bg-stone-100 px-2 py-1 text-xs font-medium text-stone-700"
                      >
                        <Icon className="size-3.5 shrink-0" aria-hidden="true" />
                        <span className="truncate">{text}</span>
                      </li>
                    ))}
                  </ul>
                )}
                <div className="mt-3 flex gap-2">
                  <Button
                    size="sm"
                    loading={deciding && review.variables?.approve === true}
                    disabled={deciding}
                    aria-label={`Approve ${name}'s post`}
                    onClick={() => decide(post, true)}
                  >
                    {!(deciding && review.variables?.approve) && <Check className="size-4" aria-hidden="true" />}
                    Approve
                  </Button>
                  <Button
                    variant="secondary"
                    size="sm"
                    loading={deciding && review.variables?.approve === false}
                    disabled={deciding}
                    aria-label={`Reject ${name}'s post`}
                    onClick={() => setRejecting(post)}
                  >
                    {!(deciding && review.variables?.approve === false) && <X className="size-4" aria-hidden="true" />}
                    Reject
                  </Button>
                </div>
              </article>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={rejecting !== null}
        onOpenChange={(open) => !open && setRejecting(null)}
        title="Reject this post?"
        description={
          rejecting
            ? `${authorName(rejecting)}'s post will be removed and will not appear in the feed. This cannot be undone.`
            : ""
        }
        confirmLabel="Reject post"
        destructive
        onConfirm={() => rejecting && decide(rejecting, false)}
      />
    </>
  );
}

/**
 * The Admin tab is for owners and admins; a moderator reviews posts from this section at the top
 * of the Community tab, shown only while something is waiting.
 */
export function ModeratorPendingApprovals({ community: c }: { community: CommunityView }) {
  const forModerator = can(c.viewer.role, "moderate_posts") && !isManager(c.viewer.role);
  const pending = usePendingPosts(c.id, forModerator);
  const count = pending.data?.length ?? 0;
  if (!forModerator || count === 0) return null;
  return (
    <section
      aria-labelledby="moderator-pending"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-amber-300 sm:p-6"
    >
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2
          id="moderator-pending"
          className="flex items-center gap-2 text-base font-bold tracking-tight text-stone-900"
        >
          <Clock className="size-4 text-amber-700" aria-hidden="true" />
          Pending approvals
        </h2>
        <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-sm font-semibold text-amber-900">
          {count} waiting
        </span>
      </div>
      <PendingApprovals communityId={c.id} moderationEnabled={c.moderation_enabled} />
    </section>
  );
}
