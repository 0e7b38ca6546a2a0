import { Suspense, useEffect, useRef } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { CATEGORY_IDS, type CommunityCategory, categoryLabel } from "#shared/communities";
import { MSG } from "#shared/messages";
import {
  CategoryChips,
  CreateCommunityDialog,
  Directory,
  DirectorySearch,
  NoCommunities,
  YourCommunities,
} from "#web/features/communities";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { useMe } from "#web/lib/session";

/** / — the directory of public communities. */
export function HomeRoute() {
  return <Home categoryId={null} />;
}

/** /category/:categoryId — the same view, filtered by category. */
export function CategoryRoute() {
  const { categoryId = "" } = useParams();
  return <Home categoryId={categoryId} />;
}

/** /create — the directory with the create-community dialog over it; sign-in comes first (SPEC §2). */
export function CreateRoute() {
  const me = useMe();
  const navigate = useNavigate();
  const signedIn = Boolean(me.data?.user);
  const signedOut = me.isSuccess && !me.data.user;
  const asked = useRef(false);
  useEffect(() => {
    if (signedOut && !asked.current) {
      asked.current = true;
      openAuthDialog({ mode: "login", redirect: "/create", message: MSG.signInToCreate });
    }
  }, [signedOut]);
  return (
    <>
      <Home categoryId={null} title="Create a community · Hearth" />
      {signedIn && (
        <Suspense fallback={null}>
          <CreateCommunityDialog open onOpenChange={(open) => !open && navigate("/")} />
        </Suspense>
      )}
    </>
  );
}

const isCategory = (id: string): id is CommunityCategory => (CATEGORY_IDS as readonly string[]).includes(id);

function Home({ categoryId, title }: { categoryId: string | null; title?: string }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get("q") ?? "";
  const term = q.trim();
  const category = categoryId !== null && isCategory(categoryId) ? categoryId : undefined;
  const unknownCategory = categoryId !== null && !category;
  const label = categoryLabel(category);

  const setQuery = (next: string) =>
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next) params.set("q", next);
        else params.delete("q");
        return params;
      },
      { replace: true, preventScrollReset: true },
    );

  const heading = term
    ? `Results for “${term}”${label ? ` in ${label}` : ""}`
    : label
      ? `Popular in ${label}`
      : "Popular communities";

  return (
    <main id="main">
      <title>{title ?? (label ? `${label} communities · Hearth` : "Discover communities · Hearth")}</title>
      <section className="relative overflow-hidden border-b border-stone-200/70">
        <div
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(50rem_22rem_at_80%_-20%,var(--color-brand-100),transparent),radial-gradient(36rem_20rem_at_0%_120%,#fef3c7,transparent)]"
          aria-hidden="true"
        />
        <div className="relative mx-auto max-w-6xl px-4 pt-10 pb-8 text-center sm:px-6 sm:pt-16 sm:pb-12">
          <h1 className="text-3xl font-extrabold tracking-tight text-balance text-stone-900 sm:text-5xl">
            Discover communities
          </h1>
          <p className="mx-auto mt-3 max-w-xl text-pretty text-stone-700 sm:mt-4 sm:text-lg">
            Find your people and learn together,{" "}
            <Link
              to="/signup"
              className="font-semibold text-brand-800 underline decoration-brand-300 decoration-2 underline-offset-4 hover:decoration-brand-700"
            >
              or create your own
            </Link>
            .
          </p>
          <div className="mt-6 sm:mt-8">
            <DirectorySearch value={q} onCommit={setQuery} />
          </div>
          <div className="mt-5 sm:mt-6">
            <CategoryChips selected={categoryId} q={term} />
          </div>
        </div>
      </section>

      <YourCommunities />

      <section aria-labelledby="directory-heading" className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
        <h2 id="directory-heading" className="mb-5 text-xl font-bold tracking-tight text-stone-900">
          {unknownCategory ? "Communities" : heading}
        </h2>
        {unknownCategory ? <NoCommunities /> : <Directory filters={{ category, q: term }} />}
      </section>
    </main>
  );
}
