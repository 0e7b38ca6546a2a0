import { eq, sql } from "drizzle-orm";
import { COURSE_MESSAGES as CM, DEFAULT_MODULE_TITLE } from "#shared/courses";
import { type CreateCourseInput } from "#shared/courses.schemas";
import { ROLE_RANK } from "#shared/roles";
import { courseModules, coursePurchases, courses, mediaFiles } from "#server/db/schema/index";
import type { CommunityRequest } from "#server/features/communities/index";
import { AppError } from "#server/lib/errors";
import { linkUploads } from "#server/lib/uploads";
import {
  checkOwnMedia,
  reorderWithin,
  requireCourse,
  requireCoursesManager,
  requireManagedCourse,
  type ViewerRequest,
} from "./courses.access";
import { findCourse, listCourses } from "./courses.read";

// Courses: creating, editing, deleting, ordering and buying them. Modules and lessons have their
// own modules (courses.modules.ts, courses.lessons.ts); reads are in courses.read.ts.

export async function createCourse({ ctx, viewer, idOrSlug, input }: CommunityRequest<{ input: CreateCourseInput }>) {
  const community = await requireCoursesManager({ ctx, viewer, idOrSlug });
  checkOwnMedia(input.thumbnail_url, community.id);
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(courses)
      .values({
        communityId: community.id,
        title: input.title,
        description: input.description,
        price: input.price,
        status: "draft",
        thumbnailUrl: input.thumbnail_url ?? null,
        createdBy: viewer.id,
        orderIndex: sql`(SELECT coalesce(max(order_index) + 1, 0) FROM courses WHERE community_id = ${community.id})`,
      })
      .returning({ id: courses.id });
    await tx.insert(courseModules).values({ courseId: row.id, title: DEFAULT_MODULE_TITLE, orderIndex: 0 });
    await linkUploads(tx, [input.thumbnail_url], { courseId: row.id }, { communityId: community.id });
    return row.id;
  });
  return findCourse({ ctx, viewer, courseId: id });
}

export async function updateCourse({
  ctx,
  viewer,
  courseId,
  input,
}: ViewerRequest<{ courseId: string; input: Partial<CreateCourseInput> & { status?: "draft" | "published" } }>) {
  const { course } = await requireManagedCourse(ctx, viewer, courseId);
  checkOwnMedia(input.thumbnail_url, course.community_id);
  await ctx.db.transaction(async (tx) => {
    if (input.thumbnail_url !== undefined && input.thumbnail_url !== course.thumbnail_url) {
      // The old thumbnail's row goes (its files with it); the new one belongs to the course.
      await tx.delete(mediaFiles).where(eq(mediaFiles.courseId, course.id));
      await linkUploads(tx, [input.thumbnail_url], { courseId: course.id }, { communityId: course.community_id });
    }
    await tx
      .update(courses)
      .set({
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.price !== undefined ? { price: input.price } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(input.thumbnail_url !== undefined ? { thumbnailUrl: input.thumbnail_url } : {}),
        updatedAt: new Date(),
      })
      .where(eq(courses.id, course.id));
  });
  return findCourse({ ctx, viewer, courseId: course.id });
}

/**
 * Deleting a course deletes its modules, lessons, completions, purchases, thumbnail and lesson
 * files (cascade, then the trigger on media_files).
 */
export async function deleteCourse({ ctx, viewer, courseId }: ViewerRequest<{ courseId: string }>) {
  const { course } = await requireManagedCourse(ctx, viewer, courseId);
  await ctx.db.delete(courses).where(eq(courses.id, course.id));
}

export async function reorderCourses({ ctx, viewer, idOrSlug, ids }: CommunityRequest<{ ids: string[] }>) {
  const community = await requireCoursesManager({ ctx, viewer, idOrSlug });
  await reorderWithin(ctx, courses, courses.communityId, community.id, ids);
  return listCourses({ ctx, viewer, idOrSlug: community.id });
}

/**
 * The simulated purchase (no real charge; recorded as a purchase at the course's price). Only a
 * member of the community buys; buying twice changes nothing.
 */
export async function purchaseCourse({ ctx, viewer, courseId }: ViewerRequest<{ courseId: string }>) {
  const { course, role } = await requireCourse(ctx.db, courseId, viewer.id);
  if (!role) throw new AppError("FORBIDDEN", "Join the community to buy its courses");
  if (course.price <= 0) throw new AppError("VALIDATION", CM.purchaseNotNeeded);
  if (course.status !== "published") throw new AppError("VALIDATION", "This course is not published yet");
  if (ROLE_RANK[role] < ROLE_RANK.admin) {
    await ctx.db
      .insert(coursePurchases)
      .values({ userId: viewer.id, courseId: course.id, amount: course.price })
      .onConflictDoNothing();
  }
  return findCourse({ ctx, viewer, courseId: course.id });
}
