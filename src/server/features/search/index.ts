// What app.ts uses of search.
export { searchRoutes } from "./search.routes";
export { startSearchBackfill } from "./backfill";
export type { SearchEngine, SearchRequest } from "./search.engine";
