export { communityQueryKeys, communityQueryOptions, fetchCommunity, useCommunity } from "./api/get-community";
export type { CommunityView } from "./api/get-community";
export { CommunityIcon } from "./components/community-icon";
