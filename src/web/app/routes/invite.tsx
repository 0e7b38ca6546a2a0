import { useParams } from "react-router";
import { InvitePage } from "#web/features/invites";

/** /invite/:inviteCode — the invite screen. */
export function InviteRoute() {
  const { inviteCode = "" } = useParams();
  // A new code is a new invitation: nothing of the previous one (a failed accept) carries over.
  return <InvitePage key={inviteCode} inviteCode={inviteCode} />;
}
