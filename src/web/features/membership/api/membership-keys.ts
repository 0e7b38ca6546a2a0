import { communityQueryKeys } from "#web/features/communities";

/** Every join-request query key (parts of the community, so its invalidations reach them). */
export const membershipQueryKeys = {
  settings: (communityId: string) => communityQueryKeys.part(communityId, "membership"),
  /** The request form and the viewer's latest request (keyed by id or slug, as the address names it). */
  mine: (idOrSlug: string) => ["communities", "join-request", idOrSlug.toLowerCase()] as const,
  minePrefix: () => ["communities", "join-request"] as const,
  requests: (communityId: string) => communityQueryKeys.part(communityId, "join-requests"),
};
