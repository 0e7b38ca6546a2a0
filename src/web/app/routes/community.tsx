import { useParams } from "react-router";
import { CommunityPage } from "#web/features/community";

/** /community/:communityId (id or slug) — the community page. */
export function CommunityRoute() {
  const { communityId = "" } = useParams();
  // A new key per community: tab, filters and dialogs start fresh when moving between communities.
  return <CommunityPage key={communityId.toLowerCase()} idOrSlug={communityId} />;
}
