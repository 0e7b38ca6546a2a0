import type { LoadResult } from "./load";

/** Numbers as the reports print them. */
export const int = (n: number) => Math.round(n).toLocaleString("en-US");
export const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
/** Where a run's CPU went, in cores. */
export const cores = (r: LoadResult) =>
  `server ${r.cpu.server.toFixed(2)}, harness ${r.cpu.harness.toFixed(2)}, others ${r.cpu.others.toFixed(2)}`;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
