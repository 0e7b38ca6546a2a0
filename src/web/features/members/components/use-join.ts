import { useState } from "react";
import { useLocation } from "react-router";
import { toast } from "#web/lib/toast";
import { priceText } from "#shared/money";
import { MSG } from "#shared/messages";
import { ApiError, errorMessage } from "#web/lib/api";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import type { CommunityView } from "#web/features/communities";
import { useJoinCommunity } from "../api/join-community";

/**
 * JOIN: the login dialog for visitors (back here afterwards); a paid community opens the plan
 * chooser (`choosing`), as does a 402 from the server; a free one joins at once. `joinFree` is the
 * chooser's 'Join free' (a paid community with a free tier lets JOIN through).
 */
export function useJoinAction(community: CommunityView) {
  const location = useLocation();
  const join = useJoinCommunity(community.id);
  const [choosing, setChoosing] = useState(false);
  const askToLogIn = () =>
    openAuthDialog({
      mode: "login",
      redirect: location.pathname + location.search,
      message: "Log in to join this community.",
    });
  const joinFree = () =>
    // A promise, not mutate's callbacks: the page may swap the landing for the member home (the
    // realtime memberships event refetches it) before they would run, and they die with it.
    join.mutateAsync().then(
      () => toast.success(`Welcome to ${community.name}!`),
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401) return askToLogIn();
        if (error instanceof ApiError && error.status === 402) return setChoosing(true);
        toast.error(errorMessage(error, MSG.joinFailed, ["FORBIDDEN", "CONFLICT"]));
      },
    );
  const run = () => {
    if (!community.viewer.signed_in) return askToLogIn();
    if (community.type === "paid") return setChoosing(true);
    void joinFree();
  };
  return { run, pending: join.isPending, choosing, setChoosing, joinFree };
}

/** "JOIN €15/month" for a paid community, "JOIN FREE" otherwise. */
export function joinLabel(community: Pick<CommunityView, "type" | "price" | "currency">) {
  const price = priceText(community.type, community.price, community.currency);
  return price === "Free" ? "JOIN FREE" : `JOIN ${price}`;
}
