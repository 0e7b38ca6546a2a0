import { lazy } from "react";

export { leaderboardQueryOptions } from "./api/get-leaderboard";

/** The Leaderboards tab loads when first opened; render it inside <Suspense>. */
export const LeaderboardsTab = lazy(() =>
  import("./components/leaderboards-tab").then((m) => ({ default: m.LeaderboardsTab })),
);
