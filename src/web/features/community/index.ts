export { CommunityPage } from "./components/community-page";
