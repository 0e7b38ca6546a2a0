import { z } from "zod";
import { LEVEL_COUNT, LEVEL_LIMITS, LEVEL_MESSAGES } from "./levels";
import { safeName } from "./names";

const levelNumber = z
  .number({ error: LEVEL_MESSAGES.minLevelRange })
  .int(LEVEL_MESSAGES.minLevelRange)
  .min(1, LEVEL_MESSAGES.minLevelRange)
  .max(LEVEL_COUNT, LEVEL_MESSAGES.minLevelRange);
export const levelNumberSchema = levelNumber;

const bonus = z
  .number({ error: LEVEL_MESSAGES.bonusRange })
  .int(LEVEL_MESSAGES.bonusRange)
  .min(0, LEVEL_MESSAGES.bonusRange)
  .max(LEVEL_LIMITS.bonusPointsMax, LEVEL_MESSAGES.bonusRange);

/** A community's level settings as the API answers them (GET /api/communities/:id/levels). */
export const levelSettingsDto = z.object({
  /** Exactly 9 names, level 1 first. */
  names: z.array(z.string()),
  /** Exactly 9 ascending thresholds, the first 0. */
  thresholds: z.array(z.number().int()),
  /** Points per completed lesson (0: lessons earn nothing). */
  points_per_lesson: z.number().int(),
  /** Points per attended event (an occurrence that ended with the member going; 0: off). */
  points_per_event: z.number().int(),
  /** The level a member needs to create a post (1: everyone). Comments stay open. */
  min_post_level: z.number().int(),
});
export type LevelSettings = z.infer<typeof levelSettingsDto>;

/** Settings → Levels (PUT /api/communities/:id/levels): every field optional, checked together. */
export const updateLevelSettingsSchema = z
  .object({
    names: z
      .array(
        safeName(
          z
            .string({ error: LEVEL_MESSAGES.nameRequired })
            .trim()
            .min(1, LEVEL_MESSAGES.nameRequired)
            .max(LEVEL_LIMITS.nameMax, LEVEL_MESSAGES.nameTooLong),
        ),
      )
      .length(LEVEL_COUNT, `Give all ${LEVEL_COUNT} levels a name`),
    thresholds: z
      .array(z.number().int().min(0).max(LEVEL_LIMITS.thresholdMax, LEVEL_MESSAGES.thresholdTooHigh))
      .length(LEVEL_COUNT, `Give all ${LEVEL_COUNT} levels their points`)
      .refine((t) => t[0] === 0, LEVEL_MESSAGES.firstThreshold)
      .refine((t) => t.every((v, i) => i === 0 || v > t[i - 1]), LEVEL_MESSAGES.thresholdsOrder),
    points_per_lesson: bonus,
    points_per_event: bonus,
    min_post_level: levelNumber,
  })
  .partial()
  .strict();
export type UpdateLevelSettingsInput = z.infer<typeof updateLevelSettingsSchema>;

/** A member's standing in a community (the leaderboards page, the profile card). */
export const memberLevelDto = z.object({
  points: z.number().int(),
  level: z.number().int(),
  /** Points still missing for the next level; null at level 9. */
  next: z.object({ level: z.number().int(), points: z.number().int() }).nullable(),
});
export type MemberLevel = z.infer<typeof memberLevelDto>;

/** One rung of the ladder on the leaderboards page: the share of current members at each level. */
export const levelLadderDto = z.array(
  z.object({
    level: z.number().int(),
    name: z.string(),
    threshold: z.number().int(),
    members: z.number().int(),
    /** Whole percent of current members at this level (0..100; the rungs sum to about 100). */
    share: z.number(),
  }),
);
