import { eq, sql } from "drizzle-orm";
import { courseModules } from "#server/db/schema/index";
import { reorderWithin, requireManagedCourse, requireManagedModule, type ViewerRequest } from "./courses.access";
import { findCourse } from "./courses.read";

// A course's modules; each change answers the course as the page shows it.

export async function createModule({
  ctx,
  viewer,
  courseId,
  input,
}: ViewerRequest<{ courseId: string; input: { title: string; description: string } }>) {
  const { course } = await requireManagedCourse(ctx, viewer, courseId);
  await ctx.db.insert(courseModules).values({
    courseId: course.id,
    title: input.title,
    description: input.description,
    orderIndex: sql`(SELECT coalesce(max(order_index) + 1, 0) FROM course_modules WHERE course_id = ${course.id})`,
  });
  return findCourse({ ctx, viewer, courseId: course.id });
}

export async function updateModule({
  ctx,
  viewer,
  moduleId,
  input,
}: ViewerRequest<{ moduleId: string; input: { title?: string; description?: string } }>) {
  const { module, course } = await requireManagedModule(ctx, viewer, moduleId);
  await ctx.db.update(courseModules).set(input).where(eq(courseModules.id, module.id));
  return findCourse({ ctx, viewer, courseId: course.id });
}

export async function deleteModule({ ctx, viewer, moduleId }: ViewerRequest<{ moduleId: string }>) {
  const { module, course } = await requireManagedModule(ctx, viewer, moduleId);
  await ctx.db.delete(courseModules).where(eq(courseModules.id, module.id));
  return findCourse({ ctx, viewer, courseId: course.id });
}

export async function reorderModules({
  ctx,
  viewer,
  courseId,
  ids,
}: ViewerRequest<{ courseId: string; ids: string[] }>) {
  const { course } = await requireManagedCourse(ctx, viewer, courseId);
  await reorderWithin(ctx, courseModules, courseModules.courseId, course.id, ids);
  return findCourse({ ctx, viewer, courseId: course.id });
}
