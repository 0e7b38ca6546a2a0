import type { CommunityRole } from "#shared/roles";
import { communityQueryKeys } from "#web/features/communities";

export type MemberFilters = { q: string; role: CommunityRole | null };

/** A community's member lists and bans live under its keys (by id), so joining or leaving refreshes them. */
export const memberQueryKeys = {
  /** Every member list of the community, whatever its filters. */
  lists: (communityId: string) => communityQueryKeys.part(communityId, "members"),
  list: (communityId: string, filters: MemberFilters) =>
    communityQueryKeys.part(communityId, "members", { q: filters.q.trim(), role: filters.role }),
  bans: (communityId: string) => communityQueryKeys.part(communityId, "bans"),
};
