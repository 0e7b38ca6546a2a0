import { useEffect, useState } from "react";
import { Navigate, useNavigate } from "react-router";
import { toast } from "#web/lib/toast";
import { MSG } from "#shared/messages";
import { isManager } from "#shared/roles";
import { NotFoundView } from "#web/components/not-found-view";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { Spinner } from "#web/components/ui/spinner";
import { ApiError } from "#web/lib/api";
import { useMe } from "#web/lib/session";
import { useSetupCommunity } from "../api/get-setup-community";
import { SetupChecklist } from "./setup-checklist";
import { BrowseCommunitiesLink } from "#web/components/browse-communities-link";

const communityPath = (idOrSlug: string) => `/community/${encodeURIComponent(idOrSlug)}`;

/**
 * /community/:communityId/setup (SPEC §2, §6): owner and admin only. Anonymous visitors go home,
 * everyone else to the community page (which shows a private community's gate); a finished
 * onboarding goes to the community page too.
 */
export function CommunitySetupPage({ idOrSlug }: { idOrSlug: string }) {
  const me = useMe();
  const signedIn = Boolean(me.data?.user);
  const community = useSetupCommunity(idOrSlug, { enabled: signedIn });
  // Set once the page has shown the unfinished checklist: finishing it here is worth a cheer.
  const [sawUnfinished, setSawUnfinished] = useState(false);
  const data = community.data;
  if (data && isManager(data.viewer.role) && !data.onboarding_completed && !sawUnfinished) setSawUnfinished(true);

  if (me.isPending) return <Loading />;
  if (me.isError) return <LoadFailed onRetry={() => void me.refetch()} />;
  if (!signedIn) return <Navigate to="/" replace />;

  if (community.isPending) return <Loading />;
  if (community.isError) {
    const error = community.error;
    if (error instanceof ApiError && error.code === "PRIVATE_COMMUNITY") {
      return <Navigate to={communityPath(idOrSlug)} replace />;
    }
    if (error instanceof ApiError && error.status === 404) {
      return (
        <NotFoundView title={MSG.communityNotFoundTitle} body={MSG.communityNotFoundBody}>
          <BrowseCommunitiesLink />
        </NotFoundView>
      );
    }
    return <LoadFailed onRetry={() => void community.refetch()} />;
  }

  const c = community.data;
  if (!isManager(c.viewer.role)) return <Navigate to={communityPath(c.slug)} replace />;
  if (c.onboarding_completed) {
    return <FinishedRedirect to={communityPath(c.slug)} cheer={sawUnfinished ? c.name : null} />;
  }
  return <SetupChecklist community={c} />;
}

/** Leaves for the community page, saying so when onboarding was just finished here. */
function FinishedRedirect({ to, cheer }: { to: string; cheer: string | null }) {
  const navigate = useNavigate();
  useEffect(() => {
    if (cheer) toast.success(`Onboarding complete: ${cheer} is ready for members!`);
    navigate(to, { replace: true });
  }, [cheer, navigate, to]);
  return <Loading />;
}

function Loading() {
  return (
    <main id="main" className="flex min-h-[60vh] items-center justify-center">
      <Spinner label="Loading the setup checklist" />
    </main>
  );
}

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <main id="main" className="mx-auto max-w-md px-4 py-16">
      <FormMessage tone="error">
        <p>The setup checklist could not be loaded. Please try again.</p>
        <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry}>
          Try again
        </Button>
      </FormMessage>
    </main>
  );
}
