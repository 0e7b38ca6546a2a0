import { Heart, MessageCircle, Pin, ShieldCheck, Users } from "lucide-react";
import { Link } from "react-router";
import { timeAgo } from "../../../../shared/format";
import { Avatar } from "../../../components/ui/avatar";
import { cn } from "../../../lib/cn";
import type { FeedPost } from "../api/get-feed";
import type { ComposerCategory } from "./post-composer";

const dateTimeFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short" });

/** The element id a notification link (`/community/{id}#post-{postId}`) points at. */
export const postAnchorId = (postId: string) => `post-${postId}`;

/** One post of the feed: author, time, category, and the text with its line breaks. */
export function PostCard({
  post,
  category,
  linkedTo = false,
}: {
  post: FeedPost;
  category: ComposerCategory | undefined;
  /** The post a `#post-{id}` link points at: focusable, and marked for assistive technology. */
  linkedTo?: boolean;
}) {
  const author = post.author;
  const name = author?.full_name || author?.username || "Former member";
  return (
    <article
      id={postAnchorId(post.id)}
      aria-labelledby={`${postAnchorId(post.id)}-author`}
      aria-current={linkedTo ? "location" : undefined}
      tabIndex={linkedTo ? -1 : undefined}
      data-linked={linkedTo || undefined}
      className={cn(
        "scroll-mt-24 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 focus:outline-none sm:p-6",
        linkedTo && "ring-brand-300",
      )}
    >
      <header className="flex items-start gap-3">
        {author ? (
          <Link to={`/u/${encodeURIComponent(author.username)}`} tabIndex={-1} aria-hidden="true">
            <Avatar src={author.avatar_url} name={name} />
          </Link>
        ) : (
          <Avatar src={null} name={name} />
        )}
        <div className="min-w-0 flex-1">
          <p id={`${postAnchorId(post.id)}-author`} className="truncate font-semibold text-stone-900">
            {author ? (
              <Link to={`/u/${encodeURIComponent(author.username)}`} className="hover:underline">
                {name}
              </Link>
            ) : (
              name
            )}
          </p>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-600">
            <time dateTime={post.created_at} title={dateTimeFormat.format(new Date(post.created_at))}>
              {timeAgo(post.created_at)}
            </time>
            {category && (
              <span className="inline-flex items-center gap-2">
                <span aria-hidden="true">·</span>
                <span className="inline-flex items-center gap-1 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-700">
                  {category.emoji && <span aria-hidden="true">{category.emoji}</span>}
                  {category.name}
                </span>
              </span>
            )}
            {post.is_edited && (
              <span className="inline-flex items-center gap-2">
                <span aria-hidden="true">·</span>
                <span>edited</span>
              </span>
            )}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap justify-end gap-1.5">
          {post.is_pinned && (
            <span className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800 ring-1 ring-brand-200">
              <Pin className="size-3" aria-hidden="true" />
              Pinned
            </span>
          )}
          {post.visibility !== "public" && (
            <span className="inline-flex items-center gap-1 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-semibold text-stone-700">
              {post.visibility === "admins" ? (
                <ShieldCheck className="size-3" aria-hidden="true" />
              ) : (
                <Users className="size-3" aria-hidden="true" />
              )}
              {post.visibility === "admins" ? "Admins only" : "Members only"}
            </span>
          )}
        </div>
      </header>
      <div className="mt-4 leading-relaxed break-words whitespace-pre-line text-stone-800">{post.content}</div>
      {(post.likes_count > 0 || post.comments_count > 0) && (
        <footer className="mt-4 flex gap-4 text-sm text-stone-600">
          {post.likes_count > 0 && (
            <span className="inline-flex items-center gap-1.5">
              <Heart className="size-4" aria-hidden="true" />
              {post.likes_count} {post.likes_count === 1 ? "like" : "likes"}
            </span>
          )}
          {post.comments_count > 0 && (
            <span className="inline-flex items-center gap-1.5">
              <MessageCircle className="size-4" aria-hidden="true" />
              {post.comments_count} {post.comments_count === 1 ? "comment" : "comments"}
            </span>
          )}
        </footer>
      )}
    </article>
  );
}

export function PostCardSkeleton() {
  return (
    <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-stone-200" aria-hidden="true">
      <div className="flex items-center gap-3">
        <div className="size-10 animate-pulse rounded-full bg-stone-200" />
        <div className="flex-1 space-y-2">
          <div className="h-3 w-1/3 animate-pulse rounded-full bg-stone-200" />
          <div className="h-2.5 w-1/5 animate-pulse rounded-full bg-stone-100" />
        </div>
      </div>
      <div className="mt-5 space-y-2.5">
        <div className="h-2.5 w-full animate-pulse rounded-full bg-stone-100" />
        <div className="h-2.5 w-11/12 animate-pulse rounded-full bg-stone-100" />
        <div className="h-2.5 w-2/3 animate-pulse rounded-full bg-stone-100" />
      </div>
    </div>
  );
}
