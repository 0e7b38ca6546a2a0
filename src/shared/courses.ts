import { LEVEL_COUNT } from "./levels";
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
  /** The levels that may unlock a course (level 1 is everyone: an open course). */
  unlockLevelMin: 2,
  unlockLevelMax: LEVEL_COUNT,
} as const;

/**
 * Why a course or lesson is closed: not a member, not bought, not on a tier that opens it, or below
 * the level that unlocks it.
 */
export const LOCK_REASONS = ["join", "purchase", "tier", "level"] as const;
export type LockReason = (typeof LOCK_REASONS)[number];

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
  /** A course the member cannot take yet (a tier, a purchase or a level opens it): its page shows what is inside. */
  previewCourse: "Preview Course",
  continueCourse: "Continue",
  reviewCourse: "Review Course",
  markComplete: "Mark Complete",
  purchaseNotNeeded: "This course is free",
  tierLocked: "This lesson is for members of the tiers that include this course.",
  levelLocked: "Members reach levels by earning points: likes on their posts and comments.",
  unlockLevelNeeded: "Choose the level that unlocks the course",
  unlockLevelRange: `Choose a level from ${COURSE_LIMITS.unlockLevelMin} to ${COURSE_LIMITS.unlockLevelMax}`,
  unlockLevelUnused: "Only a course that unlocks at a level takes an unlock level",
  unlocksAtLevel: "Unlocks at level",
  onTiers: (names: readonly string[]) => `Available on ${names.join(" or ") || "another tier"}`,
  buyFor: (price: string) => `Buy this course for ${price}`,
} as const;

/** The course card's button (SPEC §2): 'Start Course' at 0%, 'Review Course' at 100%, else 'Continue'. */
export function progressLabel(percent: number): string {
  if (percent <= 0) return COURSE_MESSAGES.startCourse;
  if (percent >= 100) return COURSE_MESSAGES.reviewCourse;
  return COURSE_MESSAGES.continueCourse;
}

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
