import { Lock, LogIn } from "lucide-react";
import { useLocation } from "react-router";
import { MSG } from "#shared/messages";
import { BrowseCommunitiesLink } from "#web/components/browse-communities-link";
import { NotFoundView } from "#web/components/not-found-view";
import { PageMessage } from "#web/components/page-message";
import { Button } from "#web/components/ui/button";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { useMe } from "#web/lib/session";

/** What /community/:communityId shows when the community is missing, or private to the viewer. */
export function CommunityGate({ kind }: { kind: "not-found" | "private" }) {
  if (kind === "private") return <PrivateGate />;
  return (
    <>
      <title>{`${MSG.communityNotFoundTitle} · Hearth`}</title>
      <NotFoundView title={MSG.communityNotFoundTitle} body={MSG.communityNotFoundBody}>
        <BrowseCommunitiesLink />
      </NotFoundView>
    </>
  );
}

/** Private community, seen by someone who is not a member (SPEC §2). */
function PrivateGate() {
  const me = useMe();
  const location = useLocation();
  const signedOut = me.isSuccess && !me.data.user;
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
