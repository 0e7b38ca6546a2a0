// What other features use of communities.
export type { CommunityRequest } from "./communities.types";
