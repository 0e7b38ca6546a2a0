export { CommunitySettingsDialog, type CommunitySettingsTab } from "./components/community-settings-dialog";
export { InviteLinkField, inviteUrl } from "./components/invite-link-field";
export { communityStatsQueryOptions, useCommunityStats, type CommunityStats } from "./api/get-community-stats";
