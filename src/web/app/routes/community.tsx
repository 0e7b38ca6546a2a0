import { useParams } from "react-router";

/** /community/:communityId — the community page (being built). */
export function CommunityRoute() {
  const { communityId = "" } = useParams();
  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-10">
      {communityId}
    </main>
  );
}
