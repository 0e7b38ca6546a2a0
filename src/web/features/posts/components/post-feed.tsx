import { MessagesSquare, RotateCw } from "lucide-react";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useLocation } from "react-router";
import type { CommunityRole } from "#shared/roles";
import { Button } from "#web/components/ui/button";
import { useQueryClient } from "@tanstack/react-query";
import { cn } from "#web/lib/cn";
import { useCommunityStream } from "#web/lib/use-community-stream";
import { postQueryKeys } from "../api/post-keys";
import { useFeed } from "../api/get-feed";
import { usePostContext } from "../api/get-post-context";
import { PostCard, PostCardSkeleton, postAnchorId } from "./post-card";
import type { ComposerCategory } from "./post-composer";
import { LoadingRegion } from "#web/components/ui/load-states";
import { FormMessage } from "#web/components/ui/form-message";
import { useBrowserValue } from "#web/lib/first-view-context";

/**
 * The community feed: category filter ('All posts' plus the community's categories), the posts
 * (pinned first, then newest), "Load more", and a deep link `#post-{id}` that scrolls to and
 * highlights a post once it is in the loaded feed.
 */
export function PostFeed({
  communityId,
  categories,
  canPost,
  viewerRole,
}: {
  communityId: string;
  categories: readonly ComposerCategory[];
  canPost: boolean;
  /** The viewer's role, for the post menu; read from the cached community when not given. */
  viewerRole?: CommunityRole | null;
}) {
  const [category, setCategory] = useState<string | null>(null);
  const feed = useFeed(communityId, category);
  const { role } = usePostContext(communityId, { role: viewerRole, categories });
  const posts = useMemo(() => feed.data?.pages.flatMap((page) => page.items) ?? [], [feed.data]);
  const linked = usePostDeepLink(posts.map((p) => p.id));
  const selected = category ? categories.find((c) => c.id === category) : undefined;

  return (
    <section aria-labelledby="feed-heading" className="space-y-4">
      <FeedUpdates communityId={communityId} />
      <h2 id="feed-heading" className="sr-only">
        Posts
      </h2>
      {categories.length > 0 && (
        <div
          role="group"
          aria-label="Filter posts by category"
          className="-mx-1 flex gap-2 overflow-x-auto px-1 py-1 [scrollbar-width:none]"
        >
          <CategoryChip active={category === null} onClick={() => setCategory(null)}>
            All posts
          </CategoryChip>
          {categories.map((c) => (
            <CategoryChip key={c.id} active={category === c.id} onClick={() => setCategory(c.id)}>
              {c.emoji && <span aria-hidden="true">{c.emoji}</span>}
              {c.name}
            </CategoryChip>
          ))}
        </div>
      )}

      {feed.isPending ? (
        <LoadingRegion label="Loading posts" className="space-y-4">
          <PostCardSkeleton />
          <PostCardSkeleton />
        </LoadingRegion>
      ) : feed.isError ? (
        <FormMessage tone="error">
          <p>Failed to load posts.</p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => void feed.refetch()}>
            <RotateCw className="size-4" aria-hidden="true" />
            Try again
          </Button>
        </FormMessage>
      ) : posts.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-stone-300 bg-white/60 px-6 py-14 text-center">
          <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <MessagesSquare className="size-6" aria-hidden="true" />
          </span>
          <p className="mt-4 font-semibold text-stone-900">
            {selected ? `No posts in ${selected.name} yet` : "No posts yet"}
          </p>
          <p className="mx-auto mt-1 max-w-sm text-sm text-stone-600">
            {canPost
              ? "Be the first to start a conversation: share a question, a win or something you learned."
              : "When members start conversations, they will show up here."}
          </p>
        </div>
      ) : (
        <>
          <ul className="space-y-4">
            {posts.map((post) => (
              <li key={post.id}>
                <PostCard post={post} categories={categories} viewerRole={role} linkedTo={linked === post.id} />
              </li>
            ))}
          </ul>
          {feed.hasNextPage && (
            <div className="flex justify-center pt-2">
              <Button variant="secondary" onClick={() => void feed.fetchNextPage()} loading={feed.isFetchingNextPage}>
                Load more
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/**
 * The feed's live updates: the stream says which post changed; the API says what the viewer may
 * see of it. A component of its own that draws nothing: the stream checks once whether the page was
 * adopted (useEventStream), which draws its component again, and that should not be the feed.
 */
function FeedUpdates({ communityId }: { communityId: string }) {
  const queryClient = useQueryClient();
  const refetchFeed = () =>
    void queryClient.invalidateQueries({ predicate: (q) => postQueryKeys.isFeedOf(q.queryKey, communityId) });
  useCommunityStream(communityId, {
    onEvent: (event) => {
      refetchFeed();
      void queryClient.invalidateQueries({ queryKey: postQueryKeys.detail(event.post_id) });
    },
    onResync: refetchFeed,
  });
  return null;
}

function CategoryChip({ active, onClick, children }: { active: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      className={cn(
        "inline-flex shrink-0 cursor-pointer items-center gap-1.5 rounded-full px-3.5 py-1.5 text-sm font-semibold whitespace-nowrap transition-colors",
        active
          ? "bg-stone-900 text-white shadow-sm"
          : "bg-white text-stone-700 ring-1 ring-stone-200 hover:bg-stone-100 hover:text-stone-900",
      )}
    >
      {children}
    </button>
  );
}

/**
 * Scrolls to the post named by `#post-{id}` once it is in the loaded feed, moves focus there (so
 * a screen reader starts at the post too) and lets a warm ring fade out over it. Returns the
 * post being pointed at, for a lasting marker.
 */
function usePostDeepLink(loadedIds: readonly string[]): string | null {
  const location = useLocation();
  // The server never sees the fragment: a page it drew is adopted without the marker, which comes after.
  const hash = useBrowserValue(() => location.hash, "");
  const target = hash.startsWith("#post-") ? decodeURIComponent(hash.slice("#post-".length)) : null;
  const present = target !== null && loadedIds.includes(target);
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!present || !target || handled.current === hash) return;
    const element = document.getElementById(postAnchorId(target));
    if (!element) return;
    handled.current = hash;
    const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    element.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "start" });
    element.focus({ preventScroll: true });
    element.animate(
      [
        { boxShadow: "0 0 0 2px var(--color-brand-500), 0 0 0 8px var(--color-brand-100)" },
        { boxShadow: "0 0 0 2px var(--color-brand-500), 0 0 0 8px var(--color-brand-100)", offset: 0.6 },
        { boxShadow: "0 0 0 1px var(--color-stone-200), 0 0 0 0 transparent" },
      ],
      { duration: 3000, easing: "ease-out" },
    );
  }, [present, target, hash]);

  return present ? target : null;
}
