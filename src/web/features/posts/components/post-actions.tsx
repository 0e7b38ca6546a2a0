import { Bookmark, Heart, MessageCircle, Share2 } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { toast } from "#web/lib/toast";
import { MSG } from "#shared/messages";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import type { FeedPost } from "../api/post-keys";
import { useSharePost } from "../api/share-post";
import { useToggleLike } from "../api/toggle-like";
import { useToggleSave } from "../api/toggle-save";

/** The share link of a post (SPEC §9: the site plus /post/{id}). */
export const postShareUrl = (postId: string) => `${window.location.origin}/post/${encodeURIComponent(postId)}`;

async function copyText(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Older browsers and some embedded views: copy through a selected, off-screen field.
    const field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.style.position = "fixed";
    field.style.opacity = "0";
    document.body.append(field);
    field.select();
    const done = document.execCommand("copy");
    field.remove();
    return done;
  }
}

/**
 * Like, comments, share and save. Like and save switch at once and roll back if the server says
 * no; signed-out viewers are asked to sign in instead.
 */
export function PostActions({
  post,
  onNeedSignIn,
}: {
  post: FeedPost;
  /** Set when signed out: what to do instead of liking or saving. */
  onNeedSignIn?: (message: string) => void;
}) {
  const like = useToggleLike(post.id);
  const save = useToggleSave(post.id);
  const share = useSharePost(post.id);
  const pending = !post.is_approved;

  const onLike = () => {
    if (onNeedSignIn) return onNeedSignIn("Sign in to like posts.");
    like.mutate(undefined, {
      onError: (error) =>
        toast.error(errorMessage(error, "Your like could not be saved. Please try again.", ["CONFLICT"])),
    });
  };
  const onSave = () => {
    if (onNeedSignIn) return onNeedSignIn("Sign in to save posts.");
    save.mutate(undefined, {
      onError: (error) => toast.error(errorMessage(error, "The post could not be saved. Please try again.")),
    });
  };
  const onShare = async () => {
    const url = postShareUrl(post.id);
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ url, title: "A post on Hearth" });
      } catch (error) {
        // Closing the share sheet is not a share.
        if (error instanceof DOMException && error.name === "AbortError") return;
        if (!(await copyText(url))) return void toast.error("The link could not be shared.");
        toast.success(MSG.linkCopied);
      }
    } else {
      if (!(await copyText(url))) return void toast.error(`Copy this link: ${url}`);
      toast.success(MSG.linkCopied);
    }
    share.mutate();
  };

  return (
    <footer className="mt-4 flex items-center gap-1 border-t border-stone-100 pt-2 sm:gap-2">
      <ActionButton onClick={onLike} pressed={post.liked} disabled={pending} tone="like">
        <Heart className={cn("size-[18px]", post.liked && "fill-current")} aria-hidden="true" />
        <span className="max-sm:sr-only">Like</span> <Count n={post.likes_count} />
      </ActionButton>
      <Link to={`/post/${encodeURIComponent(post.id)}`} className={actionClasses()}>
        <MessageCircle className="size-[18px]" aria-hidden="true" />
        <span className="max-sm:sr-only">Comments</span> <Count n={post.comments_count} />
      </Link>
      <ActionButton onClick={() => void onShare()} disabled={pending}>
        <Share2 className="size-[18px]" aria-hidden="true" />
        <span className="max-sm:sr-only">Share</span>
      </ActionButton>
      <ActionButton onClick={onSave} pressed={post.saved} tone="save" className="ml-auto">
        <Bookmark className={cn("size-[18px]", post.saved && "fill-current")} aria-hidden="true" />
        <span className="max-sm:sr-only">{post.saved ? "Saved" : "Save"}</span>
      </ActionButton>
    </footer>
  );
}

/** A count after an action's name; nothing at zero. */
function Count({ n }: { n: number }) {
  return n > 0 ? <span className="tabular-nums">{n}</span> : null;
}

const tones = {
  plain: "text-stone-600 hover:bg-stone-100 hover:text-stone-900",
  like: "text-rose-700 hover:bg-rose-50 hover:text-rose-800",
  save: "text-brand-800 hover:bg-brand-50 hover:text-brand-900",
};

const actionClasses = (tone: keyof typeof tones = "plain", className?: string) =>
  cn(
    "inline-flex h-9 min-w-9 cursor-pointer items-center justify-center gap-1.5 rounded-lg px-2.5 text-sm font-semibold transition-colors",
    "disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:bg-transparent",
    tones[tone],
    className,
  );

function ActionButton({
  onClick,
  pressed,
  disabled,
  tone,
  className,
  children,
}: {
  onClick: () => void;
  pressed?: boolean;
  disabled?: boolean;
  tone?: "like" | "save";
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-pressed={pressed}
      disabled={disabled}
      className={actionClasses(pressed && tone ? tone : "plain", className)}
    >
      {children}
    </button>
  );
}
