import { eq, sql, type SQL } from "drizzle-orm";
import { PgDialect, type PgColumn } from "drizzle-orm/pg-core";
import { COURSE_MESSAGES as CM } from "#shared/courses";
import type { CourseAccessMode } from "#shared/payments";
import { LEVEL_MESSAGES, levelName, levelReached, MIN_LEVEL } from "#shared/levels";
import { can, isRole, type CommunityRole } from "#shared/roles";
import type { AppContext, Viewer } from "#server/context";
import { boundSql, type Queryable } from "#server/db/client";
import { courseLessons, courseModules, type courses, type LessonResource } from "#server/db/schema/index";
import { isUuid, requireCommunity, requirePermission } from "#server/lib/community-access";
import { courseEntitlementSql, memberTierSql } from "#server/lib/entitlement-access";
import { AppError } from "#server/lib/errors";

// Who may see, watch and manage a course, module or lesson; shared by the courses feature's modules.

/** A signed-in viewer's request, with what else it carries. */
export type ViewerRequest<Extra = unknown> = { ctx: AppContext; viewer: Viewer } & Extra;

/** The community whose courses the viewer builds (owner, admin); a private one is not found by outsiders. */
export async function requireCoursesManager({ ctx, viewer, idOrSlug }: ViewerRequest<{ idOrSlug: string }>) {
  const { community, role } = await requireCommunity({
    db: ctx.db,
    idOrSlug,
    userId: viewer.id,
    privateAs: "not_found",
  });
  requirePermission(role, "manage_courses");
  return community;
}

export const courseNotFound = () => new AppError("NOT_FOUND", CM.courseNotFound);
export const moduleNotFound = () => new AppError("NOT_FOUND", CM.moduleNotFound);
export const lessonNotFound = () => new AppError("NOT_FOUND", CM.lessonNotFound);

/** A parent's not-found (a hidden course) answered as the child's own, so nothing tells them apart. */
export const asNotFound = (make: () => AppError) => (err: unknown) => {
  throw err instanceof AppError && err.code === "NOT_FOUND" ? make() : err;
};

/** Owners and admins build courses, see drafts and always have access (SPEC §6). */
export const isStaff = (role: CommunityRole | null) => can(role, "manage_courses");

export type CourseAccessRow = {
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
  c_currency: string;
  role: string | null;
  access: CourseAccessMode;
  tier_ids: string[];
  /** An open course entitlement (a 'sold' course bought and not refunded). */
  purchased: boolean;
  /** The viewer's open membership is on one of tier_ids. */
  in_tier: boolean;
  /** The names of the tiers (not archived) that open a 'tiers' course, in their order. */
  tier_names: string[];
  /** The level that opens a 'level' course (null otherwise). */
  unlock_level: number | null;
  /** The viewer's level in the community (1 without points; only read for a 'level' course). */
  viewer_level: number;
  /** The community's level names (null: the defaults). */
  c_level_names: string[] | null;
};

/** What decides a viewer's access to a course (the row of COURSE_ACCESS_SQL or of a list). */
export type CourseGate = Pick<CourseAccessRow, "access" | "purchased" | "in_tier" | "unlock_level" | "viewer_level">;

const minLevel = sql.raw(String(MIN_LEVEL));

/**
 * The per-viewer access columns of a course row aliased `co` (with `co.access`) for viewer
 * `userRef` (a bound parameter or an SQL expression): paid access is read only from entitlements,
 * the level from member_points (its primary key; read for a 'level' course only).
 */
export const courseGateSql = (userRef: SQL) => sql`${courseEntitlementSql(sql.raw("co.id"), userRef)} AS purchased,
           coalesce(co.access = 'tiers' AND ${memberTierSql(sql.raw("co.community_id"), userRef)} = ANY(co.tier_ids), false) AS in_tier,
           co.unlock_level::int AS unlock_level,
           CASE WHEN co.access = 'level' THEN coalesce((SELECT mp.level::int FROM member_points mp
             WHERE mp.community_id = co.community_id AND mp.user_id = ${userRef}), ${minLevel}) ELSE ${minLevel} END AS viewer_level`;

/** The names of the tiers (not archived) that open the 'tiers' course aliased `co`, in their order. */
export const tierNamesSql =
  sql.raw(`CASE WHEN co.access = 'tiers' THEN coalesce((SELECT array_agg(ct.name ORDER BY ct.position) FROM community_tiers ct
             WHERE ct.id = ANY(co.tier_ids) AND ct.archived_at IS NULL), '{}') ELSE '{}' END AS tier_names`);

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
           c.level_names AS c_level_names,
           c.currency AS c_currency, co.access, co.tier_ids, ${new PgDialect().sqlToQuery(sql`${courseGateSql(sql.raw("$2"))}, ${tierNamesSql}`).sql}
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

export async function requireCourse(db: Queryable, courseId: string, viewerId: string | null) {
  if (!isUuid(courseId)) throw courseNotFound();
  const res = await db.execute<CourseAccessRow>(boundSql(COURSE_ACCESS_SQL, [courseId, viewerId ?? ""]));
  const r = res.rows[0];
  if (!r) throw courseNotFound();
  const role = isRole(r.role) ? r.role : null;
  if (r.c_visibility === "private" && !role) throw courseNotFound();
  if (r.status !== "published" && !isStaff(role)) throw courseNotFound();
  return { course: r, role };
}

/**
 * Whether the viewer may watch (staff always): every member of a 'members' course; for 'tiers',
 * members whose open membership is on one of its tiers; for 'sold', members holding an open course
 * entitlement; for 'level', members who reached its level (moderators too: never locked out by a
 * level, src/shared/levels.ts).
 */
export function accessOf(course: CourseGate, role: CommunityRole | null) {
  if (isStaff(role)) return true;
  if (!role) return false;
  if (course.access === "tiers") return course.in_tier;
  if (course.access === "sold") return course.purchased;
  if (course.access === "level") return levelReached(role, course.viewer_level, course.unlock_level);
  return true;
}

/** Why a course is closed to the viewer: not a member, not on a tier that opens it, not bought, or below its level. */
export function lockReason(course: CourseGate, role: CommunityRole | null) {
  if (accessOf(course, role)) return null;
  if (!role) return "join" as const;
  if (course.access === "level") return "level" as const;
  return course.access === "tiers" ? ("tier" as const) : ("purchase" as const);
}

/** The refusal for a locked course's lessons and progress, by why it is locked. */
export function lockedError(course: CourseGate & { c_level_names?: string[] | null }, role: CommunityRole | null) {
  if (lockReason(course, role) === "level" && course.unlock_level != null) {
    return new AppError(
      "FORBIDDEN",
      LEVEL_MESSAGES.courseLocked(course.unlock_level, levelName(course.c_level_names, course.unlock_level)),
    );
  }
  return new AppError("FORBIDDEN", CM.locked);
}

/**
 * Whether one lesson (its video and resources) is open to the viewer: members of a course they may
 * watch, or a free preview; a draft's lessons only to staff. The lesson page and /media both ask
 * this, so a file is served to exactly those the lesson shows it to.
 */
export function lessonUnlocked(
  course: CourseGate & { status: "draft" | "published" },
  lesson: { is_preview: boolean },
  role: CommunityRole | null,
) {
  if (isStaff(role)) return true;
  if (!role || course.status !== "published") return false;
  return accessOf(course, role) || lesson.is_preview;
}

/** Course files nothing names yet (just uploaded in the editor) are for those who build courses. */
export const managesCourses = isStaff;

/** The course a manager works on: visible to them and theirs to manage. */
export async function requireManagedCourse(ctx: AppContext, viewer: Viewer, courseId: string) {
  const access = await requireCourse(ctx.db, courseId, viewer.id);
  requirePermission(access.role, "manage_courses");
  return access;
}

/** Own uploads named in a lesson or course must be this community's course media. */
export function checkOwnMedia(url: string | null | undefined, communityId: string) {
  if (url && url.startsWith("/media/") && !url.startsWith(`/media/community-assets/${communityId}/courses/`)) {
    throw new AppError("VALIDATION", "Files must be uploaded to this community's courses");
  }
}

/** A module and its course, for a manager. */
export async function requireManagedModule(ctx: AppContext, viewer: Viewer, moduleId: string) {
  if (!isUuid(moduleId)) throw moduleNotFound();
  const [m] = await ctx.db.select().from(courseModules).where(eq(courseModules.id, moduleId));
  if (!m) throw moduleNotFound();
  const access = await requireManagedCourse(ctx, viewer, m.courseId).catch(asNotFound(moduleNotFound));
  return { module: m, ...access };
}

/** The uploads a lesson names (its video and resources), which belong to it and go with it. */
export const lessonFiles = (l: { video_url?: string | null; resources?: readonly LessonResource[] }) =>
  [l.video_url, ...(l.resources ?? []).map((r) => r.url)].filter((u): u is string => !!u?.startsWith("/media/"));

/** A lesson with its module and course, for a manager. */
export async function requireManagedLesson(ctx: AppContext, viewer: Viewer, lessonId: string) {
  if (!isUuid(lessonId)) throw lessonNotFound();
  const [l] = await ctx.db.select().from(courseLessons).where(eq(courseLessons.id, lessonId));
  if (!l) throw lessonNotFound();
  const access = await requireManagedModule(ctx, viewer, l.moduleId).catch(asNotFound(lessonNotFound));
  return { lesson: l, ...access };
}

/**
 * Sets order_index to the position in `ids`, which must name every item of the parent exactly once.
 * The parent's items are locked while they are checked and renumbered.
 */
export async function reorderWithin(
  ctx: AppContext,
  table: typeof courses | typeof courseModules | typeof courseLessons,
  parent: PgColumn,
  parentId: string,
  ids: string[],
) {
  await ctx.db.transaction(async (tx) => {
    const rows = await tx.execute<{ id: string }>(
      sql`SELECT id FROM ${table} WHERE ${parent} = ${parentId} FOR UPDATE`,
    );
    const current = rows.rows.map((r) => r.id);
    const same =
      current.length === ids.length && new Set(ids).size === ids.length && ids.every((id) => current.includes(id));
    if (!same) throw new AppError("VALIDATION", "The new order must list every item exactly once");
    await tx.execute(sql`
      UPDATE ${table} SET order_index = o.position - 1
        FROM unnest(${sql.param(ids)}::uuid[]) WITH ORDINALITY AS o(id, position)
       WHERE ${table}.id = o.id`);
  });
}
