import { Clock, Pin, ShieldCheck, Users } from "lucide-react";
import { lazyPart } from "#web/lib/lazy-part";
import { Suspense, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { TimeAgo } from "#web/components/ui/time-ago";
import type { CommunityRole } from "#shared/roles";
import { HIDDEN_PENDING_REVIEW } from "#shared/posts";
import { Avatar } from "#web/components/ui/avatar";
import { LevelAvatar, useLevelNames } from "#web/features/levels";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { cn } from "#web/lib/cn";
import { useMe } from "#web/lib/session";
import { usePostContext } from "../api/get-post-context";
import type { FeedPost } from "../api/post-keys";
import { LinkPreviewCard } from "./link-preview-card";
import { PostActions } from "./post-actions";
import { PostImages } from "./post-images";
import { PostMenu } from "./post-menu";
import { PostText } from "./post-text";
import type { ComposerCategory } from "./post-composer";
import { PictureLinesSkeleton } from "#web/components/ui/load-states";

// A poll's controls load with the first post that has one (most posts have none).
const PostVideo = lazyPart("PostVideo", () => import("./post-video").then((m) => ({ default: m.PostVideo })));
const PostPoll = lazyPart("PostPoll", () => import("./post-poll").then((m) => ({ default: m.PostPoll })));

/** The element id a notification link (`/community/{id}#post-{postId}`) points at. */
export const postAnchorId = (postId: string) => `post-${postId}`;

/**
 * One post: author, time, category and markers; the text (links clickable, never HTML); its
 * images, video, poll or link preview; like, comments, share and save; and the ⋯ menu for its
 * author and the community's moderators.
 */
export function PostCard({
  post,
  categories: knownCategories,
  viewerRole,
  linkedTo = false,
  onDeleted,
}: {
  post: FeedPost;
  /** The community's categories, for the category chip and the edit dialog; read from the cache (or fetched) when not given. */
  categories?: readonly ComposerCategory[];
  /** The viewer's role in the post's community when the page knows it; else read from the cache. */
  viewerRole?: CommunityRole | null;
  /** The post a `#post-{id}` link points at: focusable, and marked for assistive technology. */
  linkedTo?: boolean;
  /** After the post was deleted from its menu (a page showing only this post moves on). */
  onDeleted?: () => void;
}) {
  const me = useMe();
  const { role, categories } = usePostContext(post.community_id, {
    role: viewerRole,
    categories: knownCategories,
  });
  const category = post.category_id ? categories.find((c) => c.id === post.category_id) : undefined;
  const location = useLocation();
  const viewerId = me.data?.user?.id ?? null;
  const signedOut = me.isSuccess && !me.data.user;
  const author = post.author;
  const levelNames = useLevelNames(post.community_id);
  const name = author?.full_name || author?.username || "Former member";
  const anchor = postAnchorId(post.id);
  const images = post.media_urls.filter((m) => m.type === "image");
  const video = post.media_urls.find((m) => m.type === "video");
  const askToSignIn = (message: string) =>
    openAuthDialog({ mode: "login", redirect: `${location.pathname}${location.search}#${anchor}`, message });

  return (
    <article
      id={anchor}
      aria-labelledby={`${anchor}-author`}
      aria-current={linkedTo ? "location" : undefined}
      tabIndex={linkedTo ? -1 : undefined}
      data-linked={linkedTo || undefined}
      className={cn(
        "scroll-mt-24 rounded-2xl bg-white px-4 pt-4 pb-2 shadow-sm ring-1 focus:outline-none sm:px-6 sm:pt-5",
        linkedTo ? "ring-brand-300" : post.is_approved && !post.hidden ? "ring-stone-200" : "ring-amber-300",
      )}
    >
      <header className="flex items-start gap-3">
        {author ? (
          <LevelAvatar level={author.level} names={levelNames}>
            <Link to={`/u/${encodeURIComponent(author.username)}`} tabIndex={-1} aria-hidden="true">
              <Avatar src={author.avatar_url} name={name} />
            </Link>
          </LevelAvatar>
        ) : (
          <Avatar src={null} name={name} />
        )}
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span id={`${anchor}-author`} className="min-w-0 truncate font-semibold text-stone-900">
              {author ? (
                <Link to={`/u/${encodeURIComponent(author.username)}`} className="hover:underline">
                  {name}
                </Link>
              ) : (
                name
              )}
            </span>
            {post.is_pinned && (
              <Badge className="bg-brand-50 text-brand-800 ring-1 ring-brand-200">
                <Pin className="size-3" aria-hidden="true" />
                Pinned
              </Badge>
            )}
            {post.hidden && (
              <Badge className="bg-amber-50 text-amber-900 ring-1 ring-amber-300">{HIDDEN_PENDING_REVIEW}</Badge>
            )}
            {!post.is_approved && (
              <Badge className="bg-amber-50 text-amber-900 ring-1 ring-amber-300">
                <Clock className="size-3" aria-hidden="true" />
                Pending approval
              </Badge>
            )}
          </p>
          <p className="mt-0.5 flex flex-wrap items-center gap-x-1.5 gap-y-1 text-sm text-stone-600">
            <TimeAgo date={post.created_at} />
            {post.is_edited && (
              <>
                <span aria-hidden="true">·</span>
                <span>edited</span>
              </>
            )}
            {category && (
              <>
                <span aria-hidden="true">·</span>
                <span className="inline-flex items-center gap-1 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-700">
                  {category.emoji && <span aria-hidden="true">{category.emoji}</span>}
                  {category.name}
                </span>
              </>
            )}
            {post.visibility !== "public" && (
              <>
                <span aria-hidden="true">·</span>
                <span className="inline-flex items-center gap-1 text-xs font-medium text-stone-700">
                  {post.visibility === "admins" ? (
                    <ShieldCheck className="size-3.5" aria-hidden="true" />
                  ) : (
                    <Users className="size-3.5" aria-hidden="true" />
                  )}
                  {post.visibility === "admins" ? "Admins only" : "Members only"}
                </span>
              </>
            )}
          </p>
        </div>
        <PostMenu
          post={post}
          role={role}
          viewerId={viewerId}
          categories={categories}
          authorName={name}
          onDeleted={onDeleted}
        />
      </header>

      {post.content && <PostText text={post.content} id={`${anchor}-text`} className="mt-3" />}
      {images.length > 0 && <PostImages images={images} authorName={name} />}
      {video && (
        <Suspense
          fallback={<div className="mt-4 aspect-video animate-pulse rounded-xl bg-stone-100" aria-hidden="true" />}
        >
          <PostVideo url={video.url} className="mt-4" />
        </Suspense>
      )}
      {post.poll && (
        <Suspense fallback={<div className="mt-4 h-24 animate-pulse rounded-xl bg-stone-100" aria-hidden="true" />}>
          <PostPoll
            postId={post.id}
            poll={post.poll}
            voteIndex={post.user_vote_index}
            approved={post.is_approved}
            headingId={post.content ? `${anchor}-text` : undefined}
            onNeedSignIn={signedOut ? () => askToSignIn("Sign in to vote in this poll.") : undefined}
          />
        </Suspense>
      )}
      {post.link_preview && <LinkPreviewCard preview={post.link_preview} />}

      <PostActions post={post} onNeedSignIn={signedOut ? askToSignIn : undefined} />
    </article>
  );
}

function Badge({ className, children }: { className: string; children: ReactNode }) {
  return (
    <span
      className={cn(
        "inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold",
        className,
      )}
    >
      {children}
    </span>
  );
}

export function PostCardSkeleton() {
  return (
    <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-stone-200" aria-hidden="true">
      <PictureLinesSkeleton
        className="flex items-center gap-3"
        picture="size-10 rounded-full bg-stone-200"
        text="flex-1 space-y-2"
        lines={["h-3 w-1/3 rounded-full bg-stone-200", "h-2.5 w-1/5 rounded-full bg-stone-100"]}
      />
      <div className="mt-5 space-y-2.5">
        <div className="h-2.5 w-full animate-pulse rounded-full bg-stone-100" />
        <div className="h-2.5 w-11/12 animate-pulse rounded-full bg-stone-100" />
        <div className="h-2.5 w-2/3 animate-pulse rounded-full bg-stone-100" />
      </div>
    </div>
  );
}
