import { communityQueryKeys } from "#web/features/communities";

/** Every reports query key (parts of the community, so its invalidations reach them). */
export const reportQueryKeys = {
  queue: (communityId: string) => communityQueryKeys.part(communityId, "reports"),
  count: (communityId: string) => communityQueryKeys.part(communityId, "reports", "count"),
  settings: (communityId: string) => communityQueryKeys.part(communityId, "report-settings"),
};
