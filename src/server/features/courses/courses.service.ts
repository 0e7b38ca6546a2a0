import { and, eq, notInArray, sql } from "drizzle-orm";
import { COURSE_MESSAGES as CM, DEFAULT_MODULE_TITLE } from "#shared/courses";
import { type CreateCourseInput, type CreateLessonInput } from "#shared/courses.schemas";
import { can, isRole, ROLE_RANK, type CommunityRole } from "#shared/roles";
import type { AppContext, Viewer } from "#server/context";
import { boundSql, type Queryable } from "#server/db/client";
import {
  courseLessons,
  courseModules,
  coursePurchases,
  courses,
  lessonCompletions,
  mediaFiles,
  type LessonResource,
} from "#server/db/schema/index";
import { isUuid, requireCommunity, requirePermission } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { linkUploads, originalKeyOf } from "#server/lib/uploads";

const courseNotFound = () => new AppError("NOT_FOUND", CM.courseNotFound);
const moduleNotFound = () => new AppError("NOT_FOUND", CM.moduleNotFound);
const lessonNotFound = () => new AppError("NOT_FOUND", CM.lessonNotFound);

/** A parent's not-found (a hidden course) answered as the child's own, so nothing tells them apart. */
const asNotFound = (make: () => AppError) => (err: unknown) => {
  throw err instanceof AppError && err.code === "NOT_FOUND" ? make() : err;
};

/** Owners and admins build courses, see drafts and always have access (SPEC §6). */
const isStaff = (role: CommunityRole | null) => can(role, "manage_courses");

type CourseAccessRow = {
  id: string;
  community_id: string;
  title: string;
  description: string;
  price: number;
  status: "draft" | "published";
  order_index: number;
  thumbnail_url: string | null;
  created_at: Date;
  c_visibility: string;
  c_slug: string;
  c_name: string;
  role: string | null;
  purchased: boolean;
};

/**
 * A course the viewer may see, with the viewer's role and purchase, in one query. A draft is seen
 * by owners and admins only; a private community's course by its members only. Anything else
 * answers like a course that does not exist.
 */
/**
 * The two statements of findCourse, as text ($1 the course id, $2 the viewer's id or ''):
 * bench/scenarios/courses.ts EXPLAINs these very statements.
 */
export const COURSE_ACCESS_SQL = `
    SELECT co.id, co.community_id, co.title, co.description, co.price::float8 AS price, co.status, co.order_index,
           co.thumbnail_url, co.created_at, c.visibility AS c_visibility, c.slug AS c_slug, c.name AS c_name, m.role,
           EXISTS (SELECT 1 FROM course_purchases p WHERE p.course_id = co.id AND p.user_id = $2) AS purchased
      FROM courses co
      JOIN communities c ON c.id = co.community_id
      LEFT JOIN community_members m ON m.community_id = co.community_id AND m.user_id = $2
     WHERE co.id = $1`;
export const COURSE_MODULES_SQL = `
    SELECT m.id, m.title, m.description, m.order_index,
           coalesce(json_agg(json_build_object(
             'id', l.id, 'module_id', l.module_id, 'title', l.title, 'description', l.description,
             'video_url', l.video_url, 'video_duration', l.video_duration, 'is_preview', l.is_preview,
             'order_index', l.order_index, 'resources', l.resources, 'completed', lc.user_id IS NOT NULL
           ) ORDER BY l.order_index, l.created_at) FILTER (WHERE l.id IS NOT NULL), '[]') AS lessons
      FROM course_modules m
      LEFT JOIN course_lessons l ON l.module_id = m.id
      LEFT JOIN lesson_completions lc ON lc.lesson_id = l.id AND lc.user_id = $2
     WHERE m.course_id = $1
     GROUP BY m.id
     ORDER BY m.order_index, m.id`;

async function requireCourse(db: Queryable, courseId: string, viewerId: string | null) {
  if (!isUuid(courseId)) throw courseNotFound();
  const res = await db.execute<CourseAccessRow>(boundSql(COURSE_ACCESS_SQL, [courseId, viewerId ?? ""]));
  const r = res.rows[0];
  if (!r) throw courseNotFound();
  const role = isRole(r.role) ? r.role : null;
  if (r.c_visibility === "private" && !role) throw courseNotFound();
  if (r.status !== "published" && !isStaff(role)) throw courseNotFound();
  return { course: r, role };
}

/** Whether the viewer may watch: members, and for a paid course only with a purchase (staff always). */
function accessOf(course: { price: number; purchased: boolean }, role: CommunityRole | null) {
  if (isStaff(role)) return true;
  if (!role) return false;
  return course.price <= 0 || course.purchased;
}

/**
 * Whether one lesson (its video and resources) is open to the viewer: members of a course they may
 * watch, or a free preview; a draft's lessons only to staff. The lesson page and /media both ask
 * this, so a file is served to exactly those the lesson shows it to.
 */
export function lessonUnlocked(
  course: { price: number; purchased: boolean; status: "draft" | "published" },
  lesson: { is_preview: boolean },
  role: CommunityRole | null,
) {
  if (isStaff(role)) return true;
  if (!role || course.status !== "published") return false;
  return accessOf(course, role) || lesson.is_preview;
}

/** Course files nothing names yet (just uploaded in the editor) are for those who build courses. */
export const managesCourses = isStaff;

const toCourseDto = (
  r: Pick<
    CourseAccessRow,
    "id" | "community_id" | "title" | "description" | "price" | "status" | "order_index" | "thumbnail_url"
  >,
  extra: { has_access: boolean; lessons_count: number; completed_count: number },
) => ({
  id: r.id,
  community_id: r.community_id,
  title: r.title,
  description: r.description,
  price: Number(r.price),
  status: r.status,
  order_index: r.order_index,
  thumbnail_url: r.thumbnail_url,
  has_access: extra.has_access,
  lessons_count: extra.lessons_count,
  completed_count: extra.completed_count,
  progress: extra.lessons_count === 0 ? 0 : Math.round((extra.completed_count / extra.lessons_count) * 100),
});

/** The Courses tab: published courses (and drafts for owners and admins) with the viewer's progress. */
export async function listCourses({
  ctx,
  viewer,
  idOrSlug,
}: {
  ctx: AppContext;
  viewer: Viewer | null;
  idOrSlug: string;
}) {
  const { community, role } = await requireCommunity({
    db: ctx.db,
    idOrSlug,
    userId: viewer?.id,
    privateAs: "not_found",
  });
  const staff = isStaff(role);
  const res = await ctx.db.execute<CourseAccessRow & { lessons_count: number; completed_count: number }>(sql`
    SELECT co.id, co.community_id, co.title, co.description, co.price::float8 AS price, co.status, co.order_index,
           co.thumbnail_url,
           (SELECT count(*)::int FROM course_lessons l JOIN course_modules m ON m.id = l.module_id
             WHERE m.course_id = co.id) AS lessons_count,
           (SELECT count(*)::int FROM lesson_completions lc
             WHERE lc.course_id = co.id AND lc.user_id = ${viewer?.id ?? ""}) AS completed_count,
           EXISTS (SELECT 1 FROM course_purchases p WHERE p.course_id = co.id AND p.user_id = ${viewer?.id ?? ""}) AS purchased
      FROM courses co
     WHERE co.community_id = ${community.id} AND (co.status = 'published' OR ${staff})
     ORDER BY co.order_index, co.created_at`);
  return {
    items: res.rows.map((r) =>
      toCourseDto(r, {
        has_access: accessOf(r, role),
        lessons_count: r.lessons_count,
        completed_count: r.completed_count,
      }),
    ),
    can_manage: staff,
  };
}

type LessonJson = {
  id: string;
  module_id: string;
  title: string;
  description: string;
  video_url: string | null;
  video_duration: number | null;
  is_preview: boolean;
  order_index: number;
  resources: LessonResource[];
  completed: boolean;
};

/**
 * One course with its modules and lessons in order, the viewer's completions and access. Two
 * statements (the course with access, then modules with lessons and completions). A locked
 * lesson's video URL and resources are left out of the answer.
 */
export async function findCourse({
  ctx,
  viewer,
  courseId,
}: {
  ctx: AppContext;
  viewer: Viewer | null;
  courseId: string;
}) {
  const { course, role } = await requireCourse(ctx.db, courseId, viewer?.id ?? null);
  const res = await ctx.db.execute<{
    id: string;
    title: string;
    description: string;
    order_index: number;
    lessons: LessonJson[];
  }>(boundSql(COURSE_MODULES_SQL, [course.id, viewer?.id ?? ""]));
  const hasAccess = accessOf(course, role);
  const member = role !== null;
  let total = 0;
  let done = 0;
  const modules = res.rows.map((m) => ({
    id: m.id,
    title: m.title,
    description: m.description,
    order_index: m.order_index,
    lessons: m.lessons.map((l) => {
      total++;
      if (l.completed) done++;
      const unlocked = lessonUnlocked(course, l, role);
      return {
        id: l.id,
        module_id: l.module_id,
        title: l.title,
        description: l.description,
        video_duration: l.video_duration,
        is_preview: l.is_preview,
        order_index: l.order_index,
        completed: l.completed,
        locked: !unlocked,
        lock_reason: unlocked ? null : member ? ("purchase" as const) : ("join" as const),
        // Never sent for a locked lesson.
        video_url: unlocked ? l.video_url : null,
        resources: unlocked ? l.resources : [],
      };
    }),
  }));
  return {
    course: toCourseDto(course, { has_access: hasAccess, lessons_count: total, completed_count: done }),
    community: { id: course.community_id, slug: course.c_slug, name: course.c_name },
    modules,
    viewer_role: role,
    can_manage: isStaff(role),
  };
}

/** The course a manager works on: visible to them and theirs to manage. */
async function requireManagedCourse(ctx: AppContext, viewer: Viewer, courseId: string) {
  const access = await requireCourse(ctx.db, courseId, viewer.id);
  requirePermission(access.role, "manage_courses");
  return access;
}

/** Own uploads named in a lesson or course must be this community's course media. */
function checkOwnMedia(url: string | null | undefined, communityId: string) {
  if (url && url.startsWith("/media/") && !url.startsWith(`/media/community-assets/${communityId}/courses/`)) {
    throw new AppError("VALIDATION", "Files must be uploaded to this community's courses");
  }
}

export async function createCourse({
  ctx,
  viewer,
  idOrSlug,
  input,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
  input: CreateCourseInput;
}) {
  const { community, role } = await requireCommunity({
    db: ctx.db,
    idOrSlug,
    userId: viewer.id,
    privateAs: "not_found",
  });
  requirePermission(role, "manage_courses");
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
}: {
  ctx: AppContext;
  viewer: Viewer;
  courseId: string;
  input: Partial<CreateCourseInput> & { status?: "draft" | "published" };
}) {
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
export async function deleteCourse({ ctx, viewer, courseId }: { ctx: AppContext; viewer: Viewer; courseId: string }) {
  const { course } = await requireManagedCourse(ctx, viewer, courseId);
  await ctx.db.delete(courses).where(eq(courses.id, course.id));
}

/** Sets order_index to the position in `ids`, which must name every item of the parent exactly once. */
async function reorder(
  tx: Queryable,
  table: typeof courses | typeof courseModules | typeof courseLessons,
  current: string[],
  ids: string[],
) {
  const same =
    current.length === ids.length && new Set(ids).size === ids.length && ids.every((id) => current.includes(id));
  if (!same) throw new AppError("VALIDATION", "The new order must list every item exactly once");
  await tx.execute(sql`
    UPDATE ${table} SET order_index = o.position - 1
      FROM unnest(${sql.param(ids)}::uuid[]) WITH ORDINALITY AS o(id, position)
     WHERE ${table}.id = o.id`);
}

export async function reorderCourses({
  ctx,
  viewer,
  idOrSlug,
  ids,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
  ids: string[];
}) {
  const { community, role } = await requireCommunity({
    db: ctx.db,
    idOrSlug,
    userId: viewer.id,
    privateAs: "not_found",
  });
  requirePermission(role, "manage_courses");
  await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: courses.id })
      .from(courses)
      .where(eq(courses.communityId, community.id))
      .for("update");
    await reorder(
      tx,
      courses,
      rows.map((r) => r.id),
      ids,
    );
  });
  return listCourses({ ctx, viewer, idOrSlug: community.id });
}

// ---------------------------------------------------------------------------------------------
// Modules

export async function createModule({
  ctx,
  viewer,
  courseId,
  input,
}: {
  ctx: AppContext;
  viewer: Viewer;
  courseId: string;
  input: { title: string; description: string };
}) {
  const { course } = await requireManagedCourse(ctx, viewer, courseId);
  await ctx.db.insert(courseModules).values({
    courseId: course.id,
    title: input.title,
    description: input.description,
    orderIndex: sql`(SELECT coalesce(max(order_index) + 1, 0) FROM course_modules WHERE course_id = ${course.id})`,
  });
  return findCourse({ ctx, viewer, courseId: course.id });
}

/** A module and its course, for a manager. */
async function requireManagedModule(ctx: AppContext, viewer: Viewer, moduleId: string) {
  if (!isUuid(moduleId)) throw moduleNotFound();
  const [m] = await ctx.db.select().from(courseModules).where(eq(courseModules.id, moduleId));
  if (!m) throw moduleNotFound();
  const access = await requireManagedCourse(ctx, viewer, m.courseId).catch(asNotFound(moduleNotFound));
  return { module: m, ...access };
}

export async function updateModule({
  ctx,
  viewer,
  moduleId,
  input,
}: {
  ctx: AppContext;
  viewer: Viewer;
  moduleId: string;
  input: { title?: string; description?: string };
}) {
  const { module, course } = await requireManagedModule(ctx, viewer, moduleId);
  await ctx.db.update(courseModules).set(input).where(eq(courseModules.id, module.id));
  return findCourse({ ctx, viewer, courseId: course.id });
}

export async function deleteModule({ ctx, viewer, moduleId }: { ctx: AppContext; viewer: Viewer; moduleId: string }) {
  const { module, course } = await requireManagedModule(ctx, viewer, moduleId);
  await ctx.db.delete(courseModules).where(eq(courseModules.id, module.id));
  return findCourse({ ctx, viewer, courseId: course.id });
}

export async function reorderModules({
  ctx,
  viewer,
  courseId,
  ids,
}: {
  ctx: AppContext;
  viewer: Viewer;
  courseId: string;
  ids: string[];
}) {
  const { course } = await requireManagedCourse(ctx, viewer, courseId);
  await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: courseModules.id })
      .from(courseModules)
      .where(eq(courseModules.courseId, course.id))
      .for("update");
    await reorder(
      tx,
      courseModules,
      rows.map((r) => r.id),
      ids,
    );
  });
  return findCourse({ ctx, viewer, courseId: course.id });
}

// ---------------------------------------------------------------------------------------------
// Lessons

export async function createLesson({
  ctx,
  viewer,
  moduleId,
  input,
}: {
  ctx: AppContext;
  viewer: Viewer;
  moduleId: string;
  input: CreateLessonInput;
}) {
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

/** The uploads a lesson names (its video and resources), which belong to it and go with it. */
const lessonFiles = (l: { video_url?: string | null; resources?: readonly LessonResource[] }) =>
  [l.video_url, ...(l.resources ?? []).map((r) => r.url)].filter((u): u is string => !!u?.startsWith("/media/"));

/** A lesson with its module and course, for a manager. */
async function requireManagedLesson(ctx: AppContext, viewer: Viewer, lessonId: string) {
  if (!isUuid(lessonId)) throw lessonNotFound();
  const [l] = await ctx.db.select().from(courseLessons).where(eq(courseLessons.id, lessonId));
  if (!l) throw lessonNotFound();
  const access = await requireManagedModule(ctx, viewer, l.moduleId).catch(asNotFound(lessonNotFound));
  return { lesson: l, ...access };
}

export async function updateLesson({
  ctx,
  viewer,
  lessonId,
  input,
}: {
  ctx: AppContext;
  viewer: Viewer;
  lessonId: string;
  input: Partial<CreateLessonInput> & { module_id?: string };
}) {
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

export async function deleteLesson({ ctx, viewer, lessonId }: { ctx: AppContext; viewer: Viewer; lessonId: string }) {
  const { lesson, course } = await requireManagedLesson(ctx, viewer, lessonId);
  await ctx.db.delete(courseLessons).where(eq(courseLessons.id, lesson.id));
  return findCourse({ ctx, viewer, courseId: course.id });
}

export async function reorderLessons({
  ctx,
  viewer,
  moduleId,
  ids,
}: {
  ctx: AppContext;
  viewer: Viewer;
  moduleId: string;
  ids: string[];
}) {
  const { module, course } = await requireManagedModule(ctx, viewer, moduleId);
  await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: courseLessons.id })
      .from(courseLessons)
      .where(eq(courseLessons.moduleId, module.id))
      .for("update");
    await reorder(
      tx,
      courseLessons,
      rows.map((r) => r.id),
      ids,
    );
  });
  return findCourse({ ctx, viewer, courseId: course.id });
}

// ---------------------------------------------------------------------------------------------
// Learning

/**
 * Records a completion once (an upsert: the second time changes nothing). Only a lesson the viewer
 * may watch can be completed. Answers the course progress.
 */
export async function completeLesson({ ctx, viewer, lessonId }: { ctx: AppContext; viewer: Viewer; lessonId: string }) {
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
  if (!accessOf(course, role) && !l.isPreview) throw new AppError("FORBIDDEN", CM.locked);
  await ctx.db
    .insert(lessonCompletions)
    .values({ userId: viewer.id, lessonId: l.id, moduleId: l.moduleId, courseId: l.courseId })
    .onConflictDoNothing();
  return progressOf(ctx, viewer.id, l.courseId);
}

async function progressOf(ctx: AppContext, userId: string, courseId: string) {
  const res = await ctx.db.execute<{ total: number; completed: number }>(sql`
    SELECT (SELECT count(*)::int FROM course_lessons l JOIN course_modules m ON m.id = l.module_id
             WHERE m.course_id = ${courseId}) AS total,
           (SELECT count(*)::int FROM lesson_completions WHERE course_id = ${courseId} AND user_id = ${userId}) AS completed`);
  const { total, completed } = res.rows[0];
  return {
    course_id: courseId,
    lessons_count: total,
    completed_count: completed,
    progress: total ? Math.round((completed / total) * 100) : 0,
  };
}

/**
 * The simulated purchase (no real charge; recorded as a purchase at the course's price). Only a
 * member of the community buys; buying twice changes nothing.
 */
export async function purchaseCourse({ ctx, viewer, courseId }: { ctx: AppContext; viewer: Viewer; courseId: string }) {
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
