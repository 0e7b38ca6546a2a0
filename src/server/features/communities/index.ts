// What other features use of communities.
export type { CommunityRequest, CommunityVisit } from "./communities.types";
export { memberLevel } from "./communities.view";
