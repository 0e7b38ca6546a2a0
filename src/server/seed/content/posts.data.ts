import type { DemoAccount } from "./communities.data";

/** How the demo accounts take part where they are members (chance per post). */
export const DEMO_HABITS: Record<
  DemoAccount,
  { like: number; save: number; comment: number; bigLike: number; bigSave: number; bigComment: number }
> = {
  owner: { like: 0.3, save: 0.06, comment: 0.12, bigLike: 0.03, bigSave: 0.004, bigComment: 0.012 },
  member: { like: 0.3, save: 0.06, comment: 0.1, bigLike: 0.025, bigSave: 0.004, bigComment: 0.01 },
};
