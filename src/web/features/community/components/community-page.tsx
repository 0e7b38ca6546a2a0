import { Suspense } from "react";
import { lazyPart } from "#web/lib/lazy-part";
import { ErrorFallback } from "#web/components/error-fallback";
import { ApiError } from "#web/lib/api";
import { useMe } from "#web/lib/session";
import { useCommunity } from "#web/features/communities";
import { LoadingRegion, PictureLinesSkeleton } from "#web/components/ui/load-states";

// A member's home (tabs, feed, composer) and a visitor's landing page are separate chunks, so
// neither downloads the other. Which one is likely is known from the session (signed out: the
// landing; signed in: the home), so it loads beside the community's data at no extra wait.
const loadHome = () => import("./community-home");
const loadLanding = () => import("./community-landing");
const CommunityHome = lazyPart("CommunityHome", () => loadHome().then((m) => ({ default: m.CommunityHome })));
const CommunityLanding = lazyPart("CommunityLanding", () =>
  loadLanding().then((m) => ({ default: m.CommunityLanding })),
);
// Not found and private: rare answers, in a chunk of their own.
const CommunityGate = lazyPart("CommunityGate", () =>
  import("./community-gate").then((m) => ({ default: m.CommunityGate })),
);

/**
 * /community/:communityId (id or slug): not found, the private gate, the landing for visitors
 * and non-members, or the member home.
 */
export function CommunityPage({ idOrSlug }: { idOrSlug: string }) {
  const community = useCommunity(idOrSlug);
  const me = useMe();
  if (me.data?.user) void loadHome();
  else if (me.data) void loadLanding();

  if (community.isPending) return <CommunityPageSkeleton />;
  if (community.isError) {
    const error = community.error;
    const gate =
      error instanceof ApiError && error.status === 404
        ? "not-found"
        : error instanceof ApiError && error.code === "PRIVATE_COMMUNITY"
          ? "private"
          : null;
    if (!gate) return <ErrorFallback />;
    return (
      <Suspense fallback={<CommunityPageSkeleton />}>
        <CommunityGate kind={gate} idOrSlug={idOrSlug} />
      </Suspense>
    );
  }

  const c = community.data;
  return (
    <Suspense fallback={<CommunityPageSkeleton />}>
      {c.viewer.role ? <CommunityHome community={c} /> : <CommunityLanding community={c} />}
    </Suspense>
  );
}

function CommunityPageSkeleton() {
  return (
    <LoadingRegion label="Loading community" as="main" id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <PictureLinesSkeleton
        className="flex items-center gap-4"
        picture="size-14 rounded-2xl bg-stone-200"
        text="space-y-2"
        lines={["h-5 w-56 rounded-full bg-stone-200", "h-3 w-40 rounded-full bg-stone-100"]}
      />
      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="aspect-[16/8] animate-pulse rounded-3xl bg-stone-200/70" />
        <div className="hidden h-96 animate-pulse rounded-3xl bg-stone-200/70 lg:block" />
      </div>
    </LoadingRegion>
  );
}
