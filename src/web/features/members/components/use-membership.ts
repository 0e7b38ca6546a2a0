import { useLocation } from "react-router";
import { toast } from "#web/lib/toast";
import { priceText } from "#shared/communities";
import { MSG } from "#shared/messages";
import { ApiError, errorMessage } from "#web/lib/api";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import type { CommunityView } from "#web/features/communities";
import { useJoinCommunity } from "../api/join-community";
import { useLeaveCommunity } from "../api/leave-community";

/** JOIN: the login dialog for visitors (back here afterwards), else join; paid ones join free for now. */
export function useJoinAction(community: CommunityView) {
  const location = useLocation();
  const join = useJoinCommunity(community.id);
  const askToLogIn = () =>
    openAuthDialog({
      mode: "login",
      redirect: location.pathname + location.search,
      message: "Log in to join this community.",
    });
  const run = () => {
    if (!community.viewer.signed_in) return askToLogIn();
    // A promise, not mutate's callbacks: the page may swap the landing for the member home (the
    // realtime memberships event refetches it) before they would run, and they die with it.
    join.mutateAsync().then(
      () => {
        toast.success(`Welcome to ${community.name}!`);
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401) return askToLogIn();
        toast.error(errorMessage(error, MSG.joinFailed, ["FORBIDDEN", "CONFLICT"]));
      },
    );
  };
  return { run, pending: join.isPending };
}

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

/** "JOIN $49/month" for a paid community, "JOIN FREE" otherwise. */
export function joinLabel(community: Pick<CommunityView, "type" | "price">) {
  const price = priceText(community.type, community.price);
  return price === "Free" ? "JOIN FREE" : `JOIN ${price}`;
}
