import { COURSE_MESSAGES } from "#shared/courses";
import { LEVEL_MESSAGES, levelName } from "#shared/levels";
import type { CourseDetail, CourseSummary, Lesson } from "./api/courses";

/** A course's price in the community's currency: "Free", "$49", "€49.50", "¥1,000". */
export function coursePriceText(price: number, currency = "usd"): string {
  if (price <= 0) return "Free";
  return new Intl.NumberFormat("en", {
    style: "currency",
    currency: currency.toUpperCase(),
    ...(Number.isInteger(price) ? { minimumFractionDigits: 0 } : {}),
  }).format(price);
}

type LockFields = "access" | "tier_names" | "price" | "currency" | "unlock_level" | "unlock_level_name";

/** A course's level and its name: "level 3 (Insider)" as LEVEL_MESSAGES writes it. */
export const unlockLevelText = (course: Pick<CourseSummary, "unlock_level" | "unlock_level_name">) =>
  course.unlock_level == null
    ? null
    : LEVEL_MESSAGES.courseLocked(
        course.unlock_level,
        course.unlock_level_name ?? levelName(null, course.unlock_level),
      );

/**
 * What opens a locked course to a member: "Available on VIP", "Buy this course for €49",
 * "Unlocks at level 3 (Insider)".
 */
export function courseLockText(course: Pick<CourseSummary, LockFields>) {
  if (course.access === "tiers") return COURSE_MESSAGES.onTiers(course.tier_names);
  if (course.access === "level") return unlockLevelText(course);
  if (course.access === "sold") return COURSE_MESSAGES.buyFor(coursePriceText(course.price, course.currency));
  return null;
}

/** Whether a member sees the course's lock: a tier, a purchase or a level opens it (not joining). */
export const lockedForMember = (course: Pick<CourseSummary, "lock_reason">) =>
  course.lock_reason != null && course.lock_reason !== "join";

/** The viewer's own level next to a course's: "You are at level 2 of 3". */
export const viewerLevelText = (course: Pick<CourseSummary, "lock_reason" | "viewer_level" | "unlock_level">) =>
  course.lock_reason === "level" && course.unlock_level != null
    ? `You are at level ${course.viewer_level} of ${course.unlock_level}`
    : null;

/** A lesson's length, stored in seconds, shown in whole minutes ("12 min"). */
export function durationText(seconds: number | null): string | null {
  if (seconds == null || seconds <= 0) return null;
  return `${Math.max(1, Math.round(seconds / 60))} min`;
}

/** Every lesson of a course in reading order (modules in order, then their lessons). */
export const allLessons = (detail: CourseDetail): Lesson[] => detail.modules.flatMap((m) => m.lessons);

/** "1 lesson", "5 lessons". */
export const lessonsText = (n: number) => `${n} ${n === 1 ? "lesson" : "lessons"}`;

/** The path of a course page (the community by its slug, so the link reads well). */
export const coursePath = (communitySlug: string, courseId: string, lessonId?: string) =>
  `/community/${encodeURIComponent(communitySlug)}/course/${encodeURIComponent(courseId)}${
    lessonId ? `?lesson=${encodeURIComponent(lessonId)}` : ""
  }`;

/** The community's Courses tab. */
export const coursesTabPath = (communitySlug: string) => `/community/${encodeURIComponent(communitySlug)}?tab=courses`;
