import { ChevronLeft, LogIn } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { MSG } from "#shared/messages";
import { ErrorFallback } from "#web/components/error-fallback";
import { NotFoundView } from "#web/components/not-found-view";
import { Button, buttonClasses } from "#web/components/ui/button";
import { ApiError } from "#web/lib/api";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { useMe } from "#web/lib/session";
import { CommunityIcon } from "#web/features/communities";
import { PostCard, PostCardSkeleton } from "../index";
import { type SinglePost, usePost } from "../api/get-post";
import { CommentsSection } from "#web/features/comments";
import { LoadingRegion } from "#web/components/ui/load-states";

/** The page title: the post's first words, then its community. */
function pageTitle({ post, community }: SinglePost): string {
  const text = post.content.replace(/\s+/g, " ").trim();
  const author = post.author?.full_name || post.author?.username || "a former member";
  const lead = text ? (text.length > 60 ? `${text.slice(0, 57).trimEnd()}…` : text) : `Post by ${author}`;
  return `${lead} · ${community.name} · Hearth`;
}

/** /post/:postId — the share link target: the post, a way back to its community, and its comments. */
export function PostPage({ postId }: { postId: string }) {
  const query = usePost(postId);
  // Signing in or out drops every cached answer; reading the session here re-renders the page so
  // the post (and the viewer's role in it) is fetched again for the new viewer.
  useMe();
  const navigate = useNavigate();

  if (query.isPending) return <PostPageSkeleton />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <PostNotFound postId={postId} />;
    return <ErrorFallback />;
  }

  const { post, community: c, viewer_role } = query.data;
  const communityHref = `/community/${encodeURIComponent(c.slug)}#post-${encodeURIComponent(post.id)}`;
  const authorName = post.author?.full_name || post.author?.username || "a former member";

  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-6 sm:px-6 sm:py-10">
      <title>{pageTitle(query.data)}</title>
      <nav aria-label="Breadcrumb" className="mb-4 sm:mb-5">
        <Link
          to={communityHref}
          className="group -ml-2 inline-flex max-w-full items-center gap-2 rounded-xl py-1.5 pr-3 pl-1.5 text-sm font-semibold text-stone-700 transition-colors hover:bg-white hover:text-stone-900 hover:shadow-sm hover:ring-1 hover:ring-stone-200"
        >
          <ChevronLeft
            className="size-4 shrink-0 text-stone-500 transition-transform group-hover:-translate-x-0.5"
            aria-hidden="true"
          />
          <CommunityIcon src={c.icon_url} name={c.name} size="sm" loading="eager" className="size-7 rounded-md" />
          <span className="truncate">
            <span className="sr-only">Back to </span>
            {c.name}
          </span>
        </Link>
      </nav>
      <h1 className="sr-only">{`Post by ${authorName} in ${c.name}`}</h1>
      <PostCard
        post={post}
        viewerRole={viewer_role}
        // Deleted from its menu: nothing is left here, so back to the community.
        onDeleted={() => navigate(`/community/${encodeURIComponent(c.slug)}`, { replace: true })}
      />
      <CommentsSection
        postId={post.id}
        approved={post.is_approved}
        viewerRole={viewer_role}
        fallbackCount={post.comments_count}
        communityId={post.community_id}
      />
    </main>
  );
}

function PostNotFound({ postId }: { postId: string }) {
  const me = useMe();
  const signedOut = me.isSuccess && !me.data.user;
  return (
    <>
      <title>{`${MSG.postNotFound} · Hearth`}</title>
      <NotFoundView
        title={MSG.postNotFound}
        body={
          signedOut
            ? "This post doesn't exist, was removed, or is only visible to members of its community. If you are a member, sign in to see it."
            : "This post doesn't exist, was removed, or is only visible to some members of its community."
        }
      >
        {signedOut && (
          <Button
            onClick={() =>
              openAuthDialog({
                mode: "login",
                redirect: `/post/${encodeURIComponent(postId)}`,
                message: "Sign in to see this post if you are a member of its community.",
              })
            }
          >
            <LogIn className="size-4" aria-hidden="true" />
            Sign in
          </Button>
        )}
        <Link to="/" className={buttonClasses({ variant: signedOut ? "secondary" : "primary" })}>
          Back to home
        </Link>
      </NotFoundView>
    </>
  );
}

function PostPageSkeleton() {
  return (
    <LoadingRegion label="Loading post" as="main" id="main" className="mx-auto max-w-3xl px-4 py-6 sm:px-6 sm:py-10">
      <div className="mb-5 flex items-center gap-2" aria-hidden="true">
        <div className="size-7 animate-pulse rounded-md bg-stone-200" />
        <div className="h-3 w-40 animate-pulse rounded-full bg-stone-200" />
      </div>
      <PostCardSkeleton />
      <div className="mt-6 h-40 animate-pulse rounded-2xl bg-white ring-1 ring-stone-200" aria-hidden="true" />
    </LoadingRegion>
  );
}
