import type { CourseDetail, Lesson } from "./api/courses";

/** A course's price: "Free", "$49" (whole dollars without decimals) or "$49.50". */
export function coursePriceText(price: number): string {
  if (price <= 0) return "Free";
  return `$${Number.isInteger(price) ? String(price) : price.toFixed(2)}`;
}

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
