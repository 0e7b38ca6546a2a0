// The calendar's screens are loaded lazily by the community page (a dynamic import names the
// component modules: components/calendar-tab and components/up-next-card); what other features
// may import statically is here.
export { eventQueryKeys } from "./api/event-keys";
export type { Occurrence } from "./api/types";
