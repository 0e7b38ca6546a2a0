import { sql } from "drizzle-orm";
import { levelName } from "#shared/levels";
import type { AppContext, Viewer } from "#server/context";
import { boundSql } from "#server/db/client";
import type { LessonResource } from "#server/db/schema/index";
import type { CommunityVisit } from "#server/features/communities/index";
import { requireCommunity } from "#server/lib/community-access";
import {
  accessOf,
  COURSE_MODULES_SQL,
  courseGateSql,
  isStaff,
  lessonUnlocked,
  lockReason,
  requireCourse,
  tierNamesSql,
  type CourseAccessRow,
} from "./courses.access";

// What the courses tab and the course page show.

const toCourseDto = (
  r: Pick<
    CourseAccessRow,
    | "id"
    | "community_id"
    | "title"
    | "description"
    | "price"
    | "status"
    | "order_index"
    | "thumbnail_url"
    | "access"
    | "tier_ids"
    | "tier_names"
    | "unlock_level"
    | "viewer_level"
  >,
  extra: {
    level_names: readonly string[] | null;
    has_access: boolean;
    lock_reason: ReturnType<typeof lockReason>;
    currency: string;
    lessons_count: number;
    completed_count: number;
  },
) => ({
  id: r.id,
  community_id: r.community_id,
  title: r.title,
  description: r.description,
  price: Number(r.price),
  currency: extra.currency,
  access: r.access,
  tier_ids: r.tier_ids,
  tier_names: r.tier_names,
  unlock_level: r.unlock_level,
  unlock_level_name: r.unlock_level == null ? null : levelName(extra.level_names, r.unlock_level),
  viewer_level: r.viewer_level,
  lock_reason: extra.lock_reason,
  status: r.status,
  order_index: r.order_index,
  thumbnail_url: r.thumbnail_url,
  has_access: extra.has_access,
  lessons_count: extra.lessons_count,
  completed_count: extra.completed_count,
  progress: extra.lessons_count === 0 ? 0 : Math.round((extra.completed_count / extra.lessons_count) * 100),
});

/** The Courses tab: published courses (and drafts for owners and admins) with the viewer's progress. */
export async function listCourses({ ctx, viewer, idOrSlug }: CommunityVisit) {
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
           co.access, co.tier_ids, ${courseGateSql(sql`${viewer?.id ?? ""}`)}, ${tierNamesSql}
      FROM courses co
     WHERE co.community_id = ${community.id} AND (co.status = 'published' OR ${staff})
     ORDER BY co.order_index, co.created_at`);
  return {
    items: res.rows.map((r) =>
      toCourseDto(r, {
        level_names: community.levelNames,
        has_access: accessOf(r, role),
        lock_reason: lockReason(r, role),
        currency: community.currency,
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
  const reason = lockReason(course, role);
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
        lock_reason: unlocked ? null : (reason ?? ("join" as const)),
        // Never sent for a locked lesson.
        video_url: unlocked ? l.video_url : null,
        resources: unlocked ? l.resources : [],
      };
    }),
  }));
  return {
    course: toCourseDto(course, {
      level_names: course.c_level_names,
      has_access: hasAccess,
      lock_reason: reason,
      currency: course.c_currency,
      lessons_count: total,
      completed_count: done,
    }),
    community: { id: course.community_id, slug: course.c_slug, name: course.c_name },
    modules,
    viewer_role: role,
    can_manage: isStaff(role),
  };
}

export async function progressOf(ctx: AppContext, userId: string, courseId: string) {
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
