import { lazy } from "react";
export { communityQueryKeys, communityQueryOptions, fetchCommunity, useCommunity } from "./api/get-community";
export {
  communityStatsQueryOptions,
  fetchCommunityStats,
  useCommunityStats,
  type CommunityStats,
} from "./api/get-community-stats";
export type { CommunityView } from "./api/get-community";
export { findCachedCommunity } from "./api/find-cached-community";
export { CommunityIcon, CoverImage, LazyImage } from "./components/community-images";
export { DIRECTORY_PAGE_SIZE, directoryQueryOptions, fetchDirectoryPage, useDirectory } from "./api/list-directory";
export type { DirectoryCard, DirectoryFilters, DirectoryPage } from "./api/list-directory";
export { createCommunity, useCreateCommunityMutation } from "./api/create-community";
export {
  invalidateMyCommunities,
  isCommunity,
  myCommunitiesQueryOptions,
  useMyCommunities,
} from "./api/get-my-communities";
export type { MyCommunities, MyCommunity } from "./api/get-my-communities";
export { invalidateCommunity } from "./api/invalidate-community";
export { YourCommunities } from "./components/your-communities";
export { CategoryChips } from "./components/category-chips";
export { CommunityCard, CommunityCardSkeleton, CommunityCover, memberCountText } from "./components/community-card";
export { Directory, NoCommunities } from "./components/directory";
export { DirectorySearch } from "./components/directory-search";

/** Loads with its form (react-hook-form, zod) when first shown; render it inside <Suspense>. */
export const CreateCommunityDialog = lazy(() =>
  import("./components/create-community-dialog").then(({ CreateCommunityDialog }) => ({
    default: CreateCommunityDialog,
  })),
);
