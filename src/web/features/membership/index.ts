// Join requests on the web: the settings' hooks, the request form (landing, gate) and the Admin tab's queue.
export {
  membershipSettingsQueryOptions,
  useMembershipSettings,
  useUpdateMembershipSettings,
  type MembershipChanges,
  type MembershipSettings,
} from "./api/membership-settings";
export { useJoinRequestForm, type JoinRequestForm } from "./api/my-join-request";
export { JoinRequestPanel, type JoinRequestPanelProps } from "./components/join-request-panel";
export { JoinRequestsSection } from "./components/join-requests-section";
