/**
 * Points and levels (issue 20, docs/decisions/0016-levels-and-requests.md): the one place both
 * sides learn how points make a level, what a level is called and what a level unlocks.
 *
 * A member's points in a community are the likes their posts and comments there received from
 * others (self-likes, likes of banned members and of deleted accounts never count), plus, when the
 * owner turns them on, points per completed lesson and per attended event. The server keeps them
 * in `member_points`, moved by database triggers in the same transaction as the like, so they stay
 * exact under concurrency.
 */

export const LEVEL_COUNT = 9;
export const MIN_LEVEL = 1;
export const MAX_LEVEL = LEVEL_COUNT;

/** Points needed for levels 1..9 (level 1 always starts at 0). */
export const DEFAULT_LEVEL_THRESHOLDS: readonly number[] = [0, 5, 20, 65, 155, 515, 2015, 8015, 33015];

/** Names until the owner chooses their own (Settings → Levels). */
export const DEFAULT_LEVEL_NAMES: readonly string[] = Array.from({ length: LEVEL_COUNT }, (_, i) => `Level ${i + 1}`);

export const LEVEL_LIMITS = {
  nameMax: 30,
  /** The highest threshold an owner may set. */
  thresholdMax: 10_000_000,
  /** Points per completed lesson or attended event when turned on (0: off). */
  bonusPointsMax: 100,
} as const;

/** "level 3 (Insider)", or "level 3" while the level keeps its default name ("Level 3"). */
const levelPhrase = (level: number, name: string) =>
  !name || name.toLowerCase() === `level ${level}` ? `level ${level}` : `level ${level} (${name})`;

export const LEVEL_MESSAGES = {
  nameRequired: "Every level needs a name",
  nameTooLong: `A level name must be at most ${LEVEL_LIMITS.nameMax} characters`,
  thresholdsOrder: "Each level needs more points than the one before",
  firstThreshold: "Level 1 starts at 0 points",
  thresholdTooHigh: `Points must be at most ${LEVEL_LIMITS.thresholdMax.toLocaleString("en-US")}`,
  bonusRange: `Points must be between 0 and ${LEVEL_LIMITS.bonusPointsMax}`,
  minLevelRange: `Choose a level from 1 to ${LEVEL_COUNT}`,
  /** Refusals (403) when a member below the community's minimum level tries to post. */
  postLocked: (level: number, name: string) => `Posting unlocks at ${levelPhrase(level, name)}`,
  courseLocked: (level: number, name: string) => `Unlocks at ${levelPhrase(level, name)}`,
  /** The level-up notification's title. */
  levelUp: (level: number, name: string, community: string) =>
    `You reached ${levelPhrase(level, name)} in ${community}`,
} as const;

/** The level (1..9) that `points` reaches with these thresholds (ascending, thresholds[0] = 0). */
export function levelOf(points: number, thresholds: readonly number[] = DEFAULT_LEVEL_THRESHOLDS): number {
  let level = MIN_LEVEL;
  for (let i = 1; i < thresholds.length; i++) if (points >= thresholds[i]) level = i + 1;
  return level;
}

/** Points still missing for the next level, or null at the top level ('12 points to level 4'). */
export function pointsToNextLevel(
  points: number,
  thresholds: readonly number[] = DEFAULT_LEVEL_THRESHOLDS,
): { level: number; points: number } | null {
  const level = levelOf(points, thresholds);
  if (level >= MAX_LEVEL) return null;
  return { level: level + 1, points: thresholds[level] - points };
}

export const levelName = (names: readonly string[] | null | undefined, level: number) =>
  names?.[level - 1] || DEFAULT_LEVEL_NAMES[level - 1] || `Level ${level}`;

/** Owners, admins and moderators are never locked out by a level (issue 20). */
export const LEVEL_EXEMPT_ROLES = ["owner", "admin", "moderator"] as const;
export const levelExempt = (role: string | null | undefined) =>
  role != null && (LEVEL_EXEMPT_ROLES as readonly string[]).includes(role);

/** Whether a member at `level` (role `role`) has reached `required` (null / 1: nothing to reach). */
export const levelReached = (role: string | null | undefined, level: number, required: number | null | undefined) =>
  levelExempt(role) || required == null || level >= required;
