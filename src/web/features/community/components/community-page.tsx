import { Lock, LogIn } from "lucide-react";
import { lazy, Suspense } from "react";
import { useLocation } from "react-router";
import { MSG } from "../../../../shared/messages";
import { ErrorFallback } from "../../../components/error-fallback";
import { NotFoundView } from "../../../components/not-found-view";
import { Button } from "../../../components/ui/button";
import { ApiError } from "../../../lib/api";
import { openAuthDialog } from "../../../lib/auth-dialog-events";
import { useMe } from "../../../lib/session";
import { useCommunity } from "../../communities";
import { BrowseCommunitiesLink } from "../../../components/browse-communities-link";

// A member's home (tabs, feed, composer) and a visitor's landing page are separate chunks, so
// neither downloads the other. Which one is likely is known from the session (signed out: the
// landing; signed in: the home), so it loads beside the community's data at no extra wait.
const loadHome = () => import("./community-home");
const loadLanding = () => import("./community-landing");
const CommunityHome = lazy(() => loadHome().then((m) => ({ default: m.CommunityHome })));
const CommunityLanding = lazy(() => loadLanding().then((m) => ({ default: m.CommunityLanding })));

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
    if (error instanceof ApiError && error.status === 404) {
      return (
        <>
          <title>{`${MSG.communityNotFoundTitle} · Hearth`}</title>
          <NotFoundView title={MSG.communityNotFoundTitle} body={MSG.communityNotFoundBody}>
            <BrowseCommunitiesLink />
          </NotFoundView>
        </>
      );
    }
    if (error instanceof ApiError && error.code === "PRIVATE_COMMUNITY") return <PrivateGate />;
    return <ErrorFallback />;
  }

  const c = community.data;
  return (
    <Suspense fallback={<CommunityPageSkeleton />}>
      {c.viewer.role ? <CommunityHome community={c} /> : <CommunityLanding community={c} />}
    </Suspense>
  );
}

/** Private community, seen by someone who is not a member (SPEC §2). */
function PrivateGate() {
  const me = useMe();
  const location = useLocation();
  const signedOut = me.isSuccess && !me.data.user;
  return (
    <main id="main" className="flex min-h-[60vh] items-center justify-center px-4 py-16">
      <title>{`${MSG.privateCommunityTitle} · Hearth`}</title>
      <div className="w-full max-w-md rounded-3xl bg-white px-6 py-10 text-center shadow-sm ring-1 ring-stone-200 sm:px-10">
        <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-stone-900 text-white shadow-md">
          <Lock className="size-6" aria-hidden="true" />
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight text-stone-900">{MSG.privateCommunityTitle}</h1>
        <p className="mt-2 text-stone-600">{MSG.privateCommunityBody}</p>
        <div className="mt-7 flex flex-col justify-center gap-3 sm:flex-row">
          {signedOut && (
            <Button
              onClick={() =>
                openAuthDialog({
                  mode: "login",
                  redirect: location.pathname + location.search + location.hash,
                  message: "Sign in to see this community if you are a member.",
                })
              }
            >
              <LogIn className="size-4" aria-hidden="true" />
              Sign in to continue
            </Button>
          )}
          <BrowseCommunitiesLink variant={signedOut ? "secondary" : "primary"} />
        </div>
      </div>
    </main>
  );
}

function CommunityPageSkeleton() {
  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6" aria-busy="true">
      <span className="sr-only" role="status">
        Loading community
      </span>
      <div className="flex items-center gap-4">
        <div className="size-14 animate-pulse rounded-2xl bg-stone-200" />
        <div className="space-y-2">
          <div className="h-5 w-56 animate-pulse rounded-full bg-stone-200" />
          <div className="h-3 w-40 animate-pulse rounded-full bg-stone-100" />
        </div>
      </div>
      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="aspect-[16/8] animate-pulse rounded-3xl bg-stone-200/70" />
        <div className="hidden h-96 animate-pulse rounded-3xl bg-stone-200/70 lg:block" />
      </div>
    </main>
  );
}
