// What other features use of communities.
export type { CommunityRequest, CommunityVisit } from "./communities.types";
