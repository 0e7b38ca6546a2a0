import { createLucideIcon, type IconNode } from "lucide-react";

// Lucide's icons for reports, drawn by lucide's own component. Declared here rather than imported
// one by one: the build groups each lucide icon file by the pages that use it (decision 0009), and
// new users of shared icons in these late-loading parts reshuffled those groups into the feed's
// and the post page's first load.
// Each part has a key: lucide draws them as a list (React warns about a list without keys).
const path = (d: string): IconNode[number] => ["path", { d, key: d }];
const dot = (cx: string): IconNode[number] => ["circle", { cx, cy: "12", r: "1", key: `dot-${cx}` }];
const shield =
  "M20 13c0 5-3.5 7.5-7.66 8.95a1 1 0 0 1-.67-.01C7.5 20.5 4 18 4 13V6a1 1 0 0 1 1-1c2 0 4.5-1.2 6.24-2.72a1.17 1.17 0 0 1 1.52 0C14.51 3.81 17 5 19 5a1 1 0 0 1 1 1z";

export const FlagIcon = createLucideIcon("flag", [
  path(
    "M4 22V4a1 1 0 0 1 .4-.8A6 6 0 0 1 8 2c3 0 5 2 7.333 2q2 0 3.067-.8A1 1 0 0 1 20 4v10a1 1 0 0 1-.4.8A6 6 0 0 1 16 16c-3 0-5-2-8-2a6 6 0 0 0-4 1.528",
  ),
]);
export const CheckIcon = createLucideIcon("check", [path("M20 6 9 17l-5-5")]);
export const TrashIcon = createLucideIcon("trash", [
  path("M10 11v6"),
  path("M14 11v6"),
  path("M19 6v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6"),
  path("M3 6h18"),
  path("M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2"),
]);
export const ShieldAlertIcon = createLucideIcon("shield-alert", [path(shield), path("M12 8v4"), path("M12 16h.01")]);
export const ShieldCheckIcon = createLucideIcon("shield-check", [path(shield), path("m9 12 2 2 4-4")]);
export const BanIcon = createLucideIcon("ban", [
  ["circle", { cx: "12", cy: "12", r: "10", key: "ring" }],
  path("M4.929 4.929 19.07 19.071"),
]);
export const EyeOffIcon = createLucideIcon("eye-off", [
  path("M10.733 5.076a10.744 10.744 0 0 1 11.205 6.575 1 1 0 0 1 0 .696 10.747 10.747 0 0 1-1.444 2.49"),
  path("M14.084 14.158a3 3 0 0 1-4.242-4.242"),
  path("M17.479 17.499a10.75 10.75 0 0 1-15.417-5.151 1 1 0 0 1 0-.696 10.75 10.75 0 0 1 4.446-5.143"),
  path("m2 2 20 20"),
]);
export const ArrowRightIcon = createLucideIcon("arrow-right", [path("M5 12h14"), path("m12 5 7 7-7 7")]);
export const EllipsisIcon = createLucideIcon("ellipsis", [dot("12"), dot("19"), dot("5")]);
