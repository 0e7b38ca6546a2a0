export { CommunitySettingsDialog, type CommunitySettingsTab } from "./components/community-settings-dialog";
export type { CommunitySettingsSection } from "./components/settings-panel";
export { InviteLinkField } from "./components/invite-link-field";
