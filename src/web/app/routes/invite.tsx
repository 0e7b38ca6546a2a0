import { useParams } from "react-router";

/** /invite/:inviteCode — the invite screen (being built). */
export function InviteRoute() {
  const { inviteCode = "" } = useParams();
  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-10">
      {inviteCode}
    </main>
  );
}
