import { useQuery } from "@tanstack/react-query";
import { communityQueryOptions, communityStatsQueryOptions } from "#web/features/communities";

/**
 * Invites are accepted elsewhere, by other people: while the checklist is open the community is
 * asked again every 10 s, so a task ticks (and a finished onboarding leaves the page) on its own.
 */
const SETUP_REFRESH_MS = 10_000;

export function useSetupCommunity(idOrSlug: string, { enabled }: { enabled: boolean }) {
  return useQuery({
    ...communityQueryOptions(idOrSlug),
    enabled,
    refetchInterval: SETUP_REFRESH_MS,
    refetchOnWindowFocus: true,
  });
}

/** How many joined through invites so far, refreshed with the checklist while that task is open. */
export function useInviteJoins(communityId: string, { live }: { live: boolean }) {
  return useQuery({
    ...communityStatsQueryOptions(communityId),
    refetchInterval: live ? SETUP_REFRESH_MS : false,
    select: (stats) => stats.joined_via_invite,
  });
}
