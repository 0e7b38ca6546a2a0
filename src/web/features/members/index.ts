import { lazy } from "react";
export { RoleBadge } from "./components/role-badge";
export { useLeaveAction } from "./components/use-membership";
export { joinLabel, useJoinAction } from "./components/use-join";
export { bansQueryOptions, fetchBans, useBans, type BanRow } from "./api/get-bans";
export { liftBan, useLiftBan } from "./api/lift-ban";

/** The Members tab loads when first opened; render it inside <Suspense>. */
export const MembersTab = lazy(() => import("./components/members-tab").then((m) => ({ default: m.MembersTab })));
