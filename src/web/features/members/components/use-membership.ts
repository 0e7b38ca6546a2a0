import { toast } from "#web/lib/toast";
import { MSG } from "#shared/messages";
import { errorMessage } from "#web/lib/api";
import type { CommunityView } from "#web/features/communities";
import { useLeaveCommunity } from "../api/leave-community";

/** Leave Community: the server refuses the only owner with the spec's message, shown as is. */
export function useLeaveAction(community: CommunityView) {
  const leave = useLeaveCommunity(community.id);
  const run = () =>
    // A promise, as for joining: the sidebar is gone once the page shows the landing.
    leave.mutateAsync().then(
      () => toast.success(`You left ${community.name}.`),
      (error: unknown) => toast.error(errorMessage(error, MSG.leaveFailed, ["CONFLICT", "BAD_REQUEST", "FORBIDDEN"])),
    );
  return { run, pending: leave.isPending };
}
