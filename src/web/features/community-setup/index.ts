export { CommunitySetupPage } from "./components/community-setup-page";
