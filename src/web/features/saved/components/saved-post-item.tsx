import { BarChart3, Heart, Link2, MessageCircle, PlayCircle } from "lucide-react";
import { Link } from "react-router";
import { TimeAgo } from "#web/components/ui/time-ago";
import { Avatar } from "#web/components/ui/avatar";
import { LazyImage } from "#web/features/communities";
import type { SavedPost } from "../api/get-saved";

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "Link";
  }
}

/** What a post carries besides its text, in a word. */
function attachment(post: SavedPost): { icon: typeof Heart; text: string } | null {
  if (post.type === "poll" && post.poll) return { icon: BarChart3, text: `Poll · ${post.poll.options.length} options` };
  if (post.type === "video") return { icon: PlayCircle, text: "Video" };
  if (post.link_preview) return { icon: Link2, text: post.link_preview.title || hostOf(post.link_preview.url) };
  return null;
}

/**
 * One saved post: its community (a link), author, time, the start of the text and a thumbnail.
 * The whole card opens the post; the community and author links sit above that.
 */
export function SavedPostItem({ post }: { post: SavedPost }) {
  const author = post.author;
  const name = author?.full_name || author?.username || "Former member";
  const image = post.media_urls.find((m) => m.type === "image");
  const extra = attachment(post);
  const text = post.content.trim();
  const titleId = `saved-${post.id}`;

  return (
    <article
      aria-labelledby={titleId}
      className="group relative rounded-2xl bg-white p-4 shadow-sm ring-1 ring-stone-200 transition-shadow hover:shadow-md hover:ring-stone-300 sm:p-5"
    >
      <p className="relative z-10 w-fit max-w-full truncate text-sm">
        <span className="text-stone-600">in </span>
        <Link
          to={`/community/${encodeURIComponent(post.community.slug)}`}
          className="font-semibold text-brand-800 hover:underline"
        >
          {post.community.name}
        </Link>
      </p>
      <div className="mt-3 flex gap-4">
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-2.5">
            <Avatar src={author?.avatar_url} name={name} size="sm" />
            <p className="min-w-0 truncate text-sm">
              <span className="font-semibold text-stone-900">{name}</span>
              <span className="text-stone-600">
                <span aria-hidden="true"> · </span>
                <TimeAgo date={post.created_at} />
              </span>
            </p>
          </div>
          <h2 id={titleId} className="mt-2.5 text-[0.9375rem] leading-relaxed break-words text-stone-800">
            <Link
              to={`/post/${encodeURIComponent(post.id)}`}
              className="line-clamp-3 whitespace-pre-line after:absolute after:inset-0 after:rounded-2xl after:content-[''] focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-brand-700"
            >
              {text || (extra ? extra.text : `Post by ${name}`)}
            </Link>
          </h2>
          {extra && text && (
            <p className="mt-2 inline-flex max-w-full items-center gap-1.5 rounded-lg bg-stone-100 px-2 py-1 text-xs font-medium text-stone-700">
              <extra.icon className="size-3.5 shrink-0" aria-hidden="true" />
              <span className="truncate">{extra.text}</span>
            </p>
          )}
          <p className="mt-3 flex gap-4 text-sm text-stone-600">
            <span className="inline-flex items-center gap-1.5">
              <Heart className="size-4" aria-hidden="true" />
              {post.likes_count}{" "}
              <span className="sr-only sm:not-sr-only">{post.likes_count === 1 ? "like" : "likes"}</span>
            </span>
            <span className="inline-flex items-center gap-1.5">
              <MessageCircle className="size-4" aria-hidden="true" />
              {post.comments_count}{" "}
              <span className="sr-only sm:not-sr-only">{post.comments_count === 1 ? "comment" : "comments"}</span>
            </span>
          </p>
        </div>
        {image && (
          <LazyImage
            src={image.thumbnail ?? image.medium ?? image.url}
            alt=""
            width={96}
            height={96}
            className="size-20 shrink-0 rounded-xl bg-stone-100 object-cover ring-1 ring-stone-200 sm:size-24"
          />
        )}
      </div>
    </article>
  );
}

export function SavedPostSkeleton() {
  return (
    <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200" aria-hidden="true">
      <div className="h-3 w-32 animate-pulse rounded-full bg-stone-200" />
      <div className="mt-4 flex items-center gap-2.5">
        <div className="size-8 animate-pulse rounded-full bg-stone-200" />
        <div className="h-3 w-40 animate-pulse rounded-full bg-stone-100" />
      </div>
      <div className="mt-4 space-y-2">
        <div className="h-2.5 w-full animate-pulse rounded-full bg-stone-100" />
        <div className="h-2.5 w-2/3 animate-pulse rounded-full bg-stone-100" />
      </div>
    </div>
  );
}
