import { useParams } from "react-router";
import { CommunitySetupPage } from "#web/features/community-setup";

/** /community/:communityId/setup — the owner's onboarding checklist. */
export function CommunitySetupRoute() {
  const { communityId = "" } = useParams();
  return <CommunitySetupPage idOrSlug={communityId} />;
}
