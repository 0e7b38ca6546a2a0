import { z } from "zod";
import { videoEmbed } from "./posts";

/** Course and lesson rules (SPEC §5, §9) and the texts people see (SPEC §8). */
export const COURSE_LIMITS = {
  titleMax: 120,
  descriptionMax: 5_000,
  priceMax: 100_000,
  moduleTitleMax: 120,
  lessonTitleMax: 160,
  resourcesMax: 20,
  resourceTitleMax: 120,
  /** Minutes; stored as seconds. */
  durationMinutesMax: 24 * 60,
  /** A lesson counts as complete when this share of a direct video was watched. */
  autoCompleteRatio: 0.9,
} as const;

export const DEFAULT_MODULE_TITLE = "Module 1: Introduction";

export const COURSE_MESSAGES = {
  created: "Course created successfully! It will appear as a draft course.",
  createFailed: "Failed to create course",
  lessonFailed: "Failed to create lesson",
  titleRequired: "Please enter a title",
  descriptionRequired: "Please enter a description",
  priceInvalid: "Price must be a number of at least 0",
  videoRequired: "Please add a video URL or upload a video",
  videoUnsupported: "Use a YouTube, Vimeo or direct video link (https://), or upload a video",
  durationMin: "Duration must be at least 1 minute",
  resourceUrl: "Resource links must start with https:// or http://",
  locked: "This lesson is part of a paid course. Purchase the course to watch it.",
  courseNotFound: "Course not found",
  lessonNotFound: "Lesson not found",
  moduleNotFound: "Module not found",
  startCourse: "Start Course",
  continueCourse: "Continue",
  reviewCourse: "Review Course",
  markComplete: "Mark Complete",
  purchaseNotNeeded: "This course is free",
} as const;

/** The course card's button (SPEC §2): 'Start Course' at 0%, 'Review Course' at 100%, else 'Continue'. */
export function progressLabel(percent: number): string {
  if (percent <= 0) return COURSE_MESSAGES.startCourse;
  if (percent >= 100) return COURSE_MESSAGES.reviewCourse;
  return COURSE_MESSAGES.continueCourse;
}

const title = (max: number) =>
  z
    .string({ error: COURSE_MESSAGES.titleRequired })
    .trim()
    .min(1, COURSE_MESSAGES.titleRequired)
    .max(max, `Title must be at most ${max} characters`);

/** Price: a number, at least 0, in steps of 0.01 (0 = free). */
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
  thumbnail_url: z
    .string()
    .max(500)
    .regex(/^\/media\/[\w./-]+$/, "Thumbnails must be uploaded to Hearth")
    .nullable()
    .optional(),
};

export const createCourseSchema = z.object({ ...courseFields, price: price.default(0) });
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
  title: z.string().trim().min(1, "Each resource needs a title").max(COURSE_LIMITS.resourceTitleMax),
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

/** How a lesson's video plays: an embed, or a file for the <video> element. */
export function lessonVideo(url: string): { kind: "youtube" | "vimeo" | "file"; src: string } | null {
  const embed = videoEmbed(url);
  if (embed) return embed;
  try {
    const u = new URL(url);
    // https only: the page's CSP (and mixed-content rules) would block an http:// file from playing.
    if (u.protocol === "https:" && /\.(mp4|webm|mov|m4v|ogg)$/i.test(u.pathname)) {
      return { kind: "file", src: u.toString() };
    }
  } catch {
    // not an absolute URL
  }
  return null;
}

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
