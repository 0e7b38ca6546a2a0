import { z } from "zod";
import { COURSE_LIMITS, COURSE_MESSAGES, lessonVideo } from "./courses";
import { COURSE_ACCESS_MODES, MAX_TIERS } from "./payments";
import { safeName } from "./names";

const title = (max: number) =>
  safeName(
    z
      .string({ error: COURSE_MESSAGES.titleRequired })
      .trim()
      .min(1, COURSE_MESSAGES.titleRequired)
      .max(max, `Title must be at most ${max} characters`),
  );

/** Price: a number in the community's currency units, at least 0, in steps of 0.01 (0 = not sold). */
const price = z
  .number({ error: COURSE_MESSAGES.priceInvalid })
  .min(0, COURSE_MESSAGES.priceInvalid)
  .max(COURSE_LIMITS.priceMax, `Price must be at most ${COURSE_LIMITS.priceMax}`)
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, "Price must be in steps of 0.01");

const courseFields = {
  title: title(COURSE_LIMITS.titleMax),
  description: z
    .string({ error: COURSE_MESSAGES.descriptionRequired })
    .trim()
    .min(1, COURSE_MESSAGES.descriptionRequired)
    .max(COURSE_LIMITS.descriptionMax),
  price,
  /** Open to every member, to members of chosen tiers, sold once, or unlocked at a level. */
  access: z.enum(COURSE_ACCESS_MODES, { error: "Choose who the course is open to" }),
  /** The community's tiers that open a 'tiers' course. */
  tier_ids: z.array(z.uuid("Unknown tier")).max(MAX_TIERS),
  /** The level (2..9) that opens a 'level' course; only with access 'level'. */
  unlock_level: z
    .number({ error: COURSE_MESSAGES.unlockLevelRange })
    .int(COURSE_MESSAGES.unlockLevelRange)
    .min(COURSE_LIMITS.unlockLevelMin, COURSE_MESSAGES.unlockLevelRange)
    .max(COURSE_LIMITS.unlockLevelMax, COURSE_MESSAGES.unlockLevelRange)
    .nullable(),
  thumbnail_url: z
    .string()
    .max(500)
    .regex(/^\/media\/[\w./-]+$/, "Thumbnails must be uploaded to Hearth")
    .nullable()
    .optional(),
};

/** Without `access`, a course with a price is sold and one without is open to every member. */
export const createCourseSchema = z.object({
  ...courseFields,
  price: price.default(0),
  access: courseFields.access.optional(),
  tier_ids: courseFields.tier_ids.default([]),
  unlock_level: courseFields.unlock_level.optional(),
});
export type CreateCourseInput = z.infer<typeof createCourseSchema>;

/** Only what is sent changes (no defaults here, or an edit would reset the price). */
export const updateCourseSchema = z
  .object(courseFields)
  .partial()
  .extend({ status: z.enum(["draft", "published"]).optional() })
  .strict();

export const moduleSchema = z.object({
  title: title(COURSE_LIMITS.moduleTitleMax),
  description: z.string().trim().max(COURSE_LIMITS.descriptionMax).default(""),
});

const resource = z.object({
  title: safeName(z.string().trim().min(1, "Each resource needs a title").max(COURSE_LIMITS.resourceTitleMax)),
  url: z
    .string()
    .trim()
    .max(2000)
    .refine((u) => /^https?:\/\/[^\s]+$/i.test(u) || /^\/media\/[\w./-]+$/.test(u), COURSE_MESSAGES.resourceUrl),
});

/** A lesson's video: a YouTube, Vimeo or direct http(s) file link, or an upload of the community. */
export const lessonVideoUrl = z
  .string({ error: COURSE_MESSAGES.videoRequired })
  .trim()
  .min(1, COURSE_MESSAGES.videoRequired)
  .max(2000)
  .refine((u) => lessonVideo(u) !== null, COURSE_MESSAGES.videoUnsupported);

const lessonFields = {
  title: title(COURSE_LIMITS.lessonTitleMax),
  description: z.string().trim().max(COURSE_LIMITS.descriptionMax),
  video_url: lessonVideoUrl,
  duration_minutes: z
    .number({ error: COURSE_MESSAGES.durationMin })
    .int("Duration must be whole minutes")
    .min(1, COURSE_MESSAGES.durationMin)
    .max(COURSE_LIMITS.durationMinutesMax)
    .nullable()
    .optional(),
  is_preview: z.boolean(),
  resources: z.array(resource).max(COURSE_LIMITS.resourcesMax),
};

export const createLessonSchema = z.object({
  ...lessonFields,
  description: lessonFields.description.default(""),
  is_preview: lessonFields.is_preview.default(false),
  resources: lessonFields.resources.default([]),
});
export type CreateLessonInput = z.infer<typeof createLessonSchema>;

/** Only what is sent changes; `module_id` moves the lesson to another module of the course. */
export const updateLessonSchema = z.object(lessonFields).partial().extend({ module_id: z.uuid().optional() }).strict();

export const reorderSchema = z.object({ ids: z.array(z.uuid()).min(1).max(2000) });
