export { acceptInvite, useAcceptInvite } from "./api/accept-invite";
export { fetchInvite, inviteQueryOptions, useInvite } from "./api/get-invite";
export type { InviteView } from "./api/get-invite";
export { InvitePage } from "./components/invite-page";
