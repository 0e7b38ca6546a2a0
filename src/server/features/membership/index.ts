// What other features use of join requests: the routes, and the rule JOIN and checkouts apply.
export { membershipRoutes } from "./membership.routes";
export { hasApprovedRequest, requireJoinAllowed } from "./membership.service";
