import { useParams } from "react-router";

/** /community/:communityId/setup — the onboarding checklist (being built). */
export function CommunitySetupRoute() {
  const { communityId = "" } = useParams();
  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-10">
      {communityId}
    </main>
  );
}
