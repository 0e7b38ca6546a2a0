// What other features and app.ts use of the calendar's event core.
export { eventRoutes } from "./events.routes";
export { eventJobHandlers, HORIZON_QUEUE } from "./occurrences";
export { readOccurrence } from "./events.read";
