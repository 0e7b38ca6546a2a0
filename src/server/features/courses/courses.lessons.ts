import { and, eq, notInArray, sql } from "drizzle-orm";
import { type CreateLessonInput } from "#shared/courses.schemas";
import { courseLessons, courseModules, lessonCompletions, mediaFiles } from "#server/db/schema/index";
import { isUuid } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { linkUploads, originalKeyOf } from "#server/lib/uploads";
import {
  accessOf,
  asNotFound,
  checkOwnMedia,
  lessonFiles,
  lessonNotFound,
  lockedError,
  moduleNotFound,
  reorderWithin,
  requireCourse,
  requireManagedLesson,
  requireManagedModule,
  type ViewerRequest,
} from "./courses.access";
import { findCourse, progressOf } from "./courses.read";

// Lessons: building them, and learning (completing one).

export async function createLesson({
  ctx,
  viewer,
  moduleId,
  input,
}: ViewerRequest<{ moduleId: string; input: CreateLessonInput }>) {
  const { module, course } = await requireManagedModule(ctx, viewer, moduleId);
  checkOwnMedia(input.video_url, course.community_id);
  for (const r of input.resources) checkOwnMedia(r.url, course.community_id);
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(courseLessons)
      .values({
        moduleId: module.id,
        title: input.title,
        description: input.description,
        videoUrl: input.video_url,
        videoDuration: input.duration_minutes ? input.duration_minutes * 60 : null,
        isPreview: input.is_preview,
        resources: input.resources,
        orderIndex: sql`(SELECT coalesce(max(order_index) + 1, 0) FROM course_lessons WHERE module_id = ${module.id})`,
      })
      .returning({ id: courseLessons.id });
    await linkUploads(tx, lessonFiles(input), { lessonId: row.id }, { communityId: course.community_id });
  });
  return findCourse({ ctx, viewer, courseId: course.id });
}

export async function updateLesson({
  ctx,
  viewer,
  lessonId,
  input,
}: ViewerRequest<{ lessonId: string; input: Partial<CreateLessonInput> & { module_id?: string } }>) {
  const { lesson, course } = await requireManagedLesson(ctx, viewer, lessonId);
  checkOwnMedia(input.video_url, course.community_id);
  for (const r of input.resources ?? []) checkOwnMedia(r.url, course.community_id);
  if (input.module_id) {
    // Moving to another module of the same course: last in its new module.
    const [target] = await ctx.db.select().from(courseModules).where(eq(courseModules.id, input.module_id));
    if (!target || target.courseId !== course.id) throw moduleNotFound();
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(courseLessons)
      .set({
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.video_url !== undefined ? { videoUrl: input.video_url } : {}),
        ...(input.duration_minutes !== undefined
          ? { videoDuration: input.duration_minutes ? input.duration_minutes * 60 : null }
          : {}),
        ...(input.is_preview !== undefined ? { isPreview: input.is_preview } : {}),
        ...(input.resources !== undefined ? { resources: input.resources } : {}),
        ...(input.module_id && input.module_id !== lesson.moduleId
          ? {
              moduleId: input.module_id,
              orderIndex: sql`(SELECT coalesce(max(order_index) + 1, 0) FROM course_lessons WHERE module_id = ${input.module_id})`,
            }
          : {}),
      })
      .where(eq(courseLessons.id, lesson.id));
    if (input.module_id && input.module_id !== lesson.moduleId) {
      await tx
        .update(lessonCompletions)
        .set({ moduleId: input.module_id })
        .where(eq(lessonCompletions.lessonId, lesson.id));
    }
    if (input.video_url !== undefined || input.resources !== undefined) {
      // Uploads the lesson no longer names go with their rows; new ones are linked.
      const files = lessonFiles({
        video_url: input.video_url !== undefined ? input.video_url : lesson.videoUrl,
        resources: input.resources ?? lesson.resources,
      });
      const keep = files.map((u) => originalKeyOf(u.slice("/media/".length)));
      await tx
        .delete(mediaFiles)
        .where(and(eq(mediaFiles.lessonId, lesson.id), keep.length ? notInArray(mediaFiles.key, keep) : undefined));
      await linkUploads(tx, files, { lessonId: lesson.id }, { communityId: course.community_id });
    }
  });
  return findCourse({ ctx, viewer, courseId: course.id });
}

export async function deleteLesson({ ctx, viewer, lessonId }: ViewerRequest<{ lessonId: string }>) {
  const { lesson, course } = await requireManagedLesson(ctx, viewer, lessonId);
  await ctx.db.delete(courseLessons).where(eq(courseLessons.id, lesson.id));
  return findCourse({ ctx, viewer, courseId: course.id });
}

export async function reorderLessons({
  ctx,
  viewer,
  moduleId,
  ids,
}: ViewerRequest<{ moduleId: string; ids: string[] }>) {
  const { module, course } = await requireManagedModule(ctx, viewer, moduleId);
  await reorderWithin(ctx, courseLessons, courseLessons.moduleId, module.id, ids);
  return findCourse({ ctx, viewer, courseId: course.id });
}

// ---------------------------------------------------------------------------------------------
// Learning

/**
 * Records a completion once (an upsert: the second time changes nothing). Only a lesson the viewer
 * may watch can be completed. Answers the course progress.
 */
export async function completeLesson({ ctx, viewer, lessonId }: ViewerRequest<{ lessonId: string }>) {
  if (!isUuid(lessonId)) throw lessonNotFound();
  const [l] = await ctx.db
    .select({
      id: courseLessons.id,
      moduleId: courseLessons.moduleId,
      courseId: courseModules.courseId,
      isPreview: courseLessons.isPreview,
    })
    .from(courseLessons)
    .innerJoin(courseModules, eq(courseModules.id, courseLessons.moduleId))
    .where(eq(courseLessons.id, lessonId));
  if (!l) throw lessonNotFound();
  const { course, role } = await requireCourse(ctx.db, l.courseId, viewer.id).catch(asNotFound(lessonNotFound));
  if (!role) throw new AppError("FORBIDDEN", "Join the community to take its courses");
  if (!accessOf(course, role) && !l.isPreview) throw lockedError(course, role);
  await ctx.db
    .insert(lessonCompletions)
    .values({ userId: viewer.id, lessonId: l.id, moduleId: l.moduleId, courseId: l.courseId })
    .onConflictDoNothing();
  return progressOf(ctx, viewer.id, l.courseId);
}
