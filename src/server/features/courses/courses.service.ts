import { eq, sql } from "drizzle-orm";
import { COURSE_MESSAGES as CM, DEFAULT_MODULE_TITLE } from "#shared/courses";
import { type CreateCourseInput } from "#shared/courses.schemas";
import {
  currencyDecimals,
  formatMoney,
  minAmount,
  PAYMENT_MESSAGES,
  toMinor,
  MAX_AMOUNT,
  type CourseAccessMode,
} from "#shared/payments";
import { ROLE_RANK } from "#shared/roles";
import type { Tx } from "#server/db/client";
import { courseModules, courses, mediaFiles } from "#server/db/schema/index";
import type { CommunityRequest } from "#server/features/communities/index";
import { AppError } from "#server/lib/errors";
import { buyCourseAtOnce } from "#server/features/payments/index";
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

type CourseSale = { access: CourseAccessMode; tierIds: string[]; price: number; unlockLevel: number | null };

/**
 * Who a course is open to, checked against the community: a 'tiers' course names at least one of
 * its tiers on sale; a 'sold' course has a price the currency can charge; a 'level' course names
 * the level (2..9) that unlocks it, and only it does. Unsent fields keep the course's current
 * value; without `access`, a price makes a course sold (the one-price form).
 */
async function resolveSale(
  tx: Tx,
  community: { id: string; currency: string },
  current: CourseSale | null,
  input: { access?: CourseAccessMode; tier_ids?: string[]; price?: number; unlock_level?: number | null },
): Promise<CourseSale> {
  const price = input.price ?? current?.price ?? 0;
  const keepsAccess = current?.access === "tiers" || current?.access === "level";
  const access =
    input.access ??
    (input.price !== undefined && !keepsAccess
      ? input.price > 0
        ? "sold"
        : "members"
      : (current?.access ?? "members"));
  if (access !== "level") {
    if (input.unlock_level != null) throw new AppError("VALIDATION", CM.unlockLevelUnused);
  } else {
    const unlockLevel = input.unlock_level !== undefined ? input.unlock_level : (current?.unlockLevel ?? null);
    if (unlockLevel == null) throw new AppError("VALIDATION", CM.unlockLevelNeeded);
    return { access, tierIds: [], price: 0, unlockLevel };
  }
  if (access === "tiers") {
    const tierIds = [...new Set(input.tier_ids ?? current?.tierIds ?? [])];
    if (tierIds.length === 0) throw new AppError("VALIDATION", PAYMENT_MESSAGES.tierIdsNeeded);
    const found = await tx.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM community_tiers
       WHERE community_id = ${community.id} AND archived_at IS NULL AND id = ANY(${sql.param(tierIds)}::uuid[])`);
    if (found.rows[0].n !== tierIds.length) throw new AppError("VALIDATION", PAYMENT_MESSAGES.tierNotFound);
    return { access, tierIds, price: 0, unlockLevel: null };
  }
  if (access === "sold") {
    const minor = toMinor(price, community.currency);
    if (price <= 0) throw new AppError("VALIDATION", PAYMENT_MESSAGES.coursePriceNeeded);
    if (Math.abs(minor - price * 10 ** currencyDecimals(community.currency)) > 1e-6) {
      throw new AppError("VALIDATION", "Whole amounts only in this currency");
    }
    const min = minAmount(community.currency);
    if (minor < min)
      throw new AppError("VALIDATION", `The smallest price is ${formatMoney(min, community.currency, "en")}`);
    if (minor > MAX_AMOUNT) throw new AppError("VALIDATION", "That price is too high");
    return { access, tierIds: [], price, unlockLevel: null };
  }
  return { access, tierIds: [], price: 0, unlockLevel: null };
}

/** A sold course's active 'once' price: replaced by a new row when the amount or currency changes; off sale otherwise. */
async function syncCoursePrice(
  tx: Tx,
  courseId: string,
  community: { id: string; currency: string },
  sale: CourseSale,
) {
  const want = sale.access === "sold" ? toMinor(sale.price, community.currency) : null;
  const res = await tx.execute<{ id: string; amount: number; currency: string }>(
    sql`SELECT id, amount, currency FROM prices WHERE course_id = ${courseId} AND product = 'course' AND active`,
  );
  const keep = res.rows.find((p) => want !== null && p.amount === want && p.currency === community.currency);
  const stale = res.rows.filter((p) => p !== keep).map((p) => p.id);
  if (stale.length > 0)
    await tx.execute(sql`UPDATE prices SET active = false WHERE id = ANY(${sql.param(stale)}::uuid[])`);
  if (want !== null && !keep) {
    await tx.execute(sql`
      INSERT INTO prices (product, community_id, course_id, interval, currency, amount)
      VALUES ('course', ${community.id}, ${courseId}, 'once', ${community.currency}, ${want})`);
  }
}

export async function createCourse({ ctx, viewer, idOrSlug, input }: CommunityRequest<{ input: CreateCourseInput }>) {
  const community = await requireCoursesManager({ ctx, viewer, idOrSlug });
  checkOwnMedia(input.thumbnail_url, community.id);
  const id = await ctx.db.transaction(async (tx) => {
    const sale = await resolveSale(tx, community, null, input);
    const [row] = await tx
      .insert(courses)
      .values({
        communityId: community.id,
        title: input.title,
        description: input.description,
        price: sale.price,
        access: sale.access,
        tierIds: sale.tierIds,
        unlockLevel: sale.unlockLevel,
        status: "draft",
        thumbnailUrl: input.thumbnail_url ?? null,
        createdBy: viewer.id,
        orderIndex: sql`(SELECT coalesce(max(order_index) + 1, 0) FROM courses WHERE community_id = ${community.id})`,
      })
      .returning({ id: courses.id });
    await syncCoursePrice(tx, row.id, community, sale);
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
  const community = { id: course.community_id, currency: course.c_currency };
  await ctx.db.transaction(async (tx) => {
    const changesSale =
      input.access !== undefined ||
      input.tier_ids !== undefined ||
      input.price !== undefined ||
      input.unlock_level !== undefined;
    let sale: CourseSale | null = null;
    if (changesSale) {
      // Saves of the same course take turns, so its active price stays one row.
      await tx.execute(sql`SELECT 1 FROM courses WHERE id = ${course.id} FOR UPDATE`);
      const current = {
        access: course.access,
        tierIds: course.tier_ids,
        price: Number(course.price),
        unlockLevel: course.unlock_level,
      };
      sale = await resolveSale(tx, community, current, input);
      await syncCoursePrice(tx, course.id, community, sale);
    }
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
        ...(sale
          ? { price: sale.price, access: sale.access, tierIds: sale.tierIds, unlockLevel: sale.unlockLevel }
          : {}),
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
 * The simulated one-step purchase (no real charge), through the payment provider like the checkout
 * page: only a member of the community buys; buying what one owns (or, for staff, has) changes
 * nothing.
 */
export async function purchaseCourse({ ctx, viewer, courseId }: ViewerRequest<{ courseId: string }>) {
  const { course, role } = await requireCourse(ctx.db, courseId, viewer.id);
  if (!role) throw new AppError("FORBIDDEN", "Join the community to buy its courses");
  if (course.access !== "sold") throw new AppError("VALIDATION", CM.purchaseNotNeeded);
  if (course.status !== "published") throw new AppError("VALIDATION", "This course is not published yet");
  if (ROLE_RANK[role] < ROLE_RANK.admin && !course.purchased) await buyCourseAtOnce(ctx, viewer, course.id);
  return findCourse({ ctx, viewer, courseId: course.id });
}
