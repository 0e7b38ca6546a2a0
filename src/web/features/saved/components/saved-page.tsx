import { Bookmark, RotateCw } from "lucide-react";
import { useMemo } from "react";
import { EmptyState } from "#web/components/empty-state";
import { SignInPrompt } from "#web/components/sign-in-prompt";
import { Button } from "#web/components/ui/button";
import { useSignInOnArrival } from "#web/lib/use-sign-in-on-arrival";
import { useSaved } from "../api/get-saved";
import { SavedPostItem, SavedPostSkeleton } from "./saved-post-item";
import { BrowseCommunitiesLink } from "#web/components/browse-communities-link";
import { LoadingRegion } from "#web/components/ui/load-states";
import { FormMessage } from "#web/components/ui/form-message";

const SIGN_IN = { mode: "login", redirect: "/saved", message: "Sign in to see your saved posts." } as const;

/** /saved — posts the signed-in user saved, newest saved first; signed out, the sign-in dialog leads back here. */
export function SavedPage() {
  const { me, signedIn, signedOut } = useSignInOnArrival(SIGN_IN);
  const saved = useSaved(signedIn);
  const posts = useMemo(() => saved.data?.pages.flatMap((page) => page.items) ?? [], [saved.data]);

  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <title>Saved posts · Hearth</title>
      <div className="flex items-center gap-3">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
          <Bookmark className="size-5" aria-hidden="true" />
        </span>
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Saved posts</h1>
          <p className="text-sm text-stone-600">Posts you saved to come back to, newest first.</p>
        </div>
      </div>

      <div className="mt-6 sm:mt-8">
        {me.isPending || (signedIn && saved.isPending) ? (
          <LoadingRegion label="Loading saved posts" className="space-y-4">
            <SavedPostSkeleton />
            <SavedPostSkeleton />
            <SavedPostSkeleton />
          </LoadingRegion>
        ) : signedOut ? (
          <SignInPrompt request={SIGN_IN} title="Sign in to see your saved posts">
            Posts you save in your communities are kept here for you.
          </SignInPrompt>
        ) : saved.isError ? (
          <FormMessage tone="error">
            <p>Failed to load your saved posts.</p>
            <Button variant="secondary" size="sm" className="mt-2" onClick={() => void saved.refetch()}>
              <RotateCw className="size-4" aria-hidden="true" />
              Try again
            </Button>
          </FormMessage>
        ) : posts.length === 0 ? (
          <EmptyState icon={Bookmark} title="No saved posts yet" action={<BrowseCommunitiesLink variant="secondary" />}>
            Tap the bookmark on any post to save it. Saved posts are private: only you see them here.
          </EmptyState>
        ) : (
          <>
            <ul className="space-y-4" aria-label="Saved posts">
              {posts.map((post) => (
                <li key={post.id}>
                  <SavedPostItem post={post} />
                </li>
              ))}
            </ul>
            {saved.hasNextPage && (
              <div className="flex justify-center pt-6">
                <Button
                  variant="secondary"
                  onClick={() => void saved.fetchNextPage()}
                  loading={saved.isFetchingNextPage}
                >
                  Load more
                </Button>
              </div>
            )}
          </>
        )}
      </div>
    </main>
  );
}
