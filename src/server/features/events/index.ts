// What other features, the seed and app.ts use of the calendar's event core.
export { eventRoutes } from "./events.routes";
export { COPIED_COLUMNS, eventJobHandlers, extendHorizons, HORIZON_QUEUE } from "./occurrences";
export { readOccurrence } from "./events.read";
export { expandSeries, instantToWallClock, nextSlot, zonedWallClockToInstant } from "./recurrence";
