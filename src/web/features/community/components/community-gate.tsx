import { Lock, LogIn } from "lucide-react";
import { useLocation } from "react-router";
import { MSG } from "#shared/messages";
import { BrowseCommunitiesLink } from "#web/components/browse-communities-link";
import { NotFoundView } from "#web/components/not-found-view";
import { PageMessage } from "#web/components/page-message";
import { Button } from "#web/components/ui/button";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { useMe } from "#web/lib/session";
import { LoadingRegion } from "#web/components/ui/load-states";
import { JoinRequestPanel, useJoinRequestForm } from "#web/features/membership";

/** What /community/:communityId shows when the community is missing, or private to the viewer. */
export function CommunityGate({ kind, idOrSlug }: { kind: "not-found" | "private"; idOrSlug: string }) {
  if (kind === "private") return <PrivateGate idOrSlug={idOrSlug} />;
  return (
    <>
      <title>{`${MSG.communityNotFoundTitle} · Hearth`}</title>
      <NotFoundView title={MSG.communityNotFoundTitle} body={MSG.communityNotFoundBody}>
        <BrowseCommunitiesLink />
      </NotFoundView>
    </>
  );
}

/**
 * Private community, seen by someone who is not a member (SPEC §2). One that takes requests shows
 * its request form (or the viewer's request) instead of only 'You need an invitation'; its content
 * stays private.
 */
function PrivateGate({ idOrSlug }: { idOrSlug: string }) {
  const me = useMe();
  const location = useLocation();
  const signedOut = me.isSuccess && !me.data.user;
  const form = useJoinRequestForm(idOrSlug);
  if (form.isPending) {
    return (
      <LoadingRegion label="Loading community" className="w-full max-w-md">
        <div className="h-64 animate-pulse rounded-3xl bg-stone-200/70" />
      </LoadingRegion>
    );
  }
  if (form.data?.join_policy === "request") {
    const f = form.data;
    return (
      <PageMessage
        icon={<Lock className="size-6" aria-hidden="true" />}
        iconClassName="bg-stone-900 text-white shadow-md"
        title={f.community.name}
        body="This community is private. Ask to join: an admin reviews each request."
        className="w-full max-w-md rounded-3xl bg-white px-6 py-10 text-center shadow-sm ring-1 ring-stone-200 sm:px-10"
      >
        <title>{`${f.community.name} · Hearth`}</title>
        <div className="mt-7 text-left">
          <JoinRequestPanel
            communityId={f.community.id}
            communityName={f.community.name}
            questions={f.questions}
            askEmail={f.ask_email}
            request={f.request}
            signedIn={!signedOut}
          />
        </div>
        <div className="mt-4 flex justify-center">
          <BrowseCommunitiesLink variant="secondary" />
        </div>
      </PageMessage>
    );
  }
  return (
    <PageMessage
      icon={<Lock className="size-6" aria-hidden="true" />}
      iconClassName="bg-stone-900 text-white shadow-md"
      title={MSG.privateCommunityTitle}
      body={MSG.privateCommunityBody}
      className="w-full max-w-md rounded-3xl bg-white px-6 py-10 text-center shadow-sm ring-1 ring-stone-200 sm:px-10"
    >
      <title>{`${MSG.privateCommunityTitle} · Hearth`}</title>
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
    </PageMessage>
  );
}
