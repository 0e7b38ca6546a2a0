import { CloudOff, Compass, RotateCw } from "lucide-react";
import { type ReactNode, useEffect, useMemo, useRef } from "react";
import { MSG } from "#shared/messages";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";
import { type DirectoryFilters, useDirectory } from "../api/list-directory";
import { CommunityCard, CommunityCardSkeleton } from "./community-card";

const gridClasses = "grid gap-5 sm:grid-cols-2 lg:grid-cols-3";

/** How far below the screen the next page starts loading. */
const PREFETCH_MARGIN = "600px 0px";

/** The community grid for a category and keyword: by member count, paged by a button and by scrolling. */
export function Directory({ filters }: { filters: DirectoryFilters }) {
  const query = useDirectory(filters);
  const { data, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  const items = useMemo(() => data?.pages.flatMap((page) => page.items) ?? [], [data]);

  const loadMore = () => {
    if (!isFetchingNextPage) void fetchNextPage({ cancelRefetch: false });
  };

  // Infinite scroll: a sentinel under the grid asks for the next page as it nears the screen. The
  // observer is rebuilt after each page, so a screen still showing the sentinel keeps loading.
  const sentinel = useRef<HTMLDivElement>(null);
  const pageCount = data?.pages.length ?? 0;
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage || isFetchingNextPage || isFetchNextPageError) return;
    if (typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage({ cancelRefetch: false });
      },
      { rootMargin: PREFETCH_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, pageCount]);

  if (query.isPending) {
    return (
      <div aria-busy="true">
        <p role="status" className="sr-only">
          Loading communities
        </p>
        <ul className={gridClasses} aria-hidden="true">
          {Array.from({ length: 6 }, (_, i) => (
            <li key={i}>
              <CommunityCardSkeleton />
            </li>
          ))}
        </ul>
      </div>
    );
  }

  if (query.isError && !data) {
    return (
      <StatePanel title={MSG.loadCommunitiesFailed} alert>
        <p className="mt-1 text-stone-600">Check your connection and try again.</p>
        <Button variant="secondary" className="mt-5" loading={query.isFetching} onClick={() => void query.refetch()}>
          <RotateCw className="size-4" aria-hidden="true" />
          Try again
        </Button>
      </StatePanel>
    );
  }

  if (items.length === 0) return <NoCommunities />;

  return (
    <div aria-busy={query.isPlaceholderData || undefined}>
      <p role="status" className="sr-only">
        {query.isPlaceholderData ? "Loading communities" : `Showing ${items.length} communities`}
      </p>
      <ul
        className={cn(gridClasses, "transition-opacity", query.isPlaceholderData && "opacity-60")}
        aria-label="Communities"
      >
        {items.map((community, i) => (
          <li key={community.id}>
            {/* The first row is on screen when the page opens: its covers load first. */}
            <CommunityCard community={community} priority={i < 3} />
          </li>
        ))}
      </ul>
      <div ref={sentinel} className="mt-10 flex flex-col items-center gap-3">
        {isFetchNextPageError && (
          <p role="alert" className="text-sm text-red-700">
            {MSG.loadCommunitiesFailed}
          </p>
        )}
        {hasNextPage ? (
          <Button variant="secondary" size="lg" loading={isFetchingNextPage} onClick={loadMore}>
            {isFetchNextPageError ? "Try again" : "Load more"}
          </Button>
        ) : (
          pageCount > 1 && <p className="text-sm text-stone-500">You've reached the end of the list.</p>
        )}
      </div>
    </div>
  );
}

/** The empty directory (also an unknown category). */
export function NoCommunities() {
  return (
    <StatePanel title={MSG.noCommunities}>
      <p className="mt-1 text-stone-600">Try another category or a different search.</p>
    </StatePanel>
  );
}

function StatePanel({ title, alert, children }: { title: string; alert?: boolean; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center rounded-2xl border border-dashed border-stone-300 bg-white/60 px-6 py-16 text-center">
      <span
        className={cn(
          "flex size-12 items-center justify-center rounded-full",
          alert ? "bg-red-50 text-red-700" : "bg-brand-50 text-brand-700",
        )}
      >
        {alert ? <CloudOff className="size-6" aria-hidden="true" /> : <Compass className="size-6" aria-hidden="true" />}
      </span>
      <p role={alert ? "alert" : "status"} className="mt-4 text-lg font-semibold text-stone-900">
        {title}
      </p>
      {children}
    </div>
  );
}
