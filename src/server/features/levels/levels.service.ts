import { eq, sql } from "drizzle-orm";
import { DEFAULT_LEVEL_NAMES, LEVEL_COUNT, LEVEL_MESSAGES, levelName } from "#shared/levels";
import type { LevelSettings, UpdateLevelSettingsInput } from "#shared/levels.schemas";
import { MSG } from "#shared/messages";
import type { AppContext, Viewer } from "#server/context";
import { communities } from "#server/db/schema/index";
import { type CommunityRow, requireCommunity, requireCommunityPermission } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import type { JobHandler } from "#server/lib/jobs";
import { notify } from "#server/lib/notifications";

/**
 * Points and levels (issue 20): the owner's settings (Settings → Levels), the level-up
 * notification and the attendance sweep. The points themselves are kept by the triggers of
 * migration 0023 (member_points), in the same transaction as what earns them.
 */

/** The job the member_points trigger queues when a member reaches a level for the first time. */
export const LEVEL_UP_QUEUE = "levels.level_up";
/** The sweep that counts attendance of the occurrences that ended (every minute). */
export const ATTENDANCE_SWEEP_QUEUE = "levels.attendance";
/** Occurrences counted per transaction. */
export const ATTENDANCE_BATCH = 50;

type Req<T = object> = { ctx: AppContext; viewer: Viewer; idOrSlug: string } & T;

export function toLevelSettings(c: CommunityRow): LevelSettings {
  return {
    names: Array.from({ length: LEVEL_COUNT }, (_, i) => levelName(c.levelNames, i + 1)),
    thresholds: c.levelThresholds,
    points_per_lesson: c.pointsPerLesson,
    points_per_event: c.pointsPerEvent,
    min_post_level: c.minPostLevel,
  };
}

/** Any member reads the level settings; a private community is not found by outsiders. */
export async function findLevelSettings({ ctx, viewer, idOrSlug }: Req): Promise<LevelSettings> {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  if (!role) throw new AppError("FORBIDDEN", MSG.insufficientPermissions);
  return toLevelSettings(community);
}

/**
 * Owners and admins change the names, thresholds, bonus points and the minimum level to post.
 * Changing thresholds or bonus points recomputes every member's points and level in the same
 * statement (a trigger on communities), without level-up notifications.
 */
export async function updateLevelSettings({
  ctx,
  viewer,
  idOrSlug,
  input,
}: Req<{ input: UpdateLevelSettingsInput }>): Promise<LevelSettings> {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "manage_settings");
  const set: Partial<typeof communities.$inferInsert> = { updatedAt: new Date() };
  if (input.names !== undefined)
    set.levelNames = input.names.every((n, i) => n === DEFAULT_LEVEL_NAMES[i]) ? null : input.names;
  if (input.thresholds !== undefined) set.levelThresholds = input.thresholds;
  if (input.points_per_lesson !== undefined) set.pointsPerLesson = input.points_per_lesson;
  if (input.points_per_event !== undefined) set.pointsPerEvent = input.points_per_event;
  if (input.min_post_level !== undefined) set.minPostLevel = input.min_post_level;
  const [row] = await ctx.db.update(communities).set(set).where(eq(communities.id, community.id)).returning();
  return toLevelSettings(row);
}

/** The level-up notification, linking to the community's Leaderboards tab. */
export async function notifyLevelUp(ctx: Pick<AppContext, "db">, payload: Record<string, unknown>) {
  const { communityId, userId, level } = payload;
  if (typeof communityId !== "string" || typeof userId !== "string" || typeof level !== "number") return 0;
  const [c] = await ctx.db
    .select({ name: communities.name, levelNames: communities.levelNames })
    .from(communities)
    .where(eq(communities.id, communityId));
  if (!c) return 0;
  return notify(ctx.db, {
    recipients: [userId],
    actorId: null,
    communityId,
    type: "level_up",
    title: LEVEL_MESSAGES.levelUp(level, levelName(c.levelNames, level), c.name),
    body: "",
    data: { tab: "leaderboards", level },
  });
}

/**
 * Counts attendance of the occurrences that ended (not cancelled), each once across processes:
 * a batch is claimed by setting attendance_counted_at (rows another run holds are skipped), and
 * every member going gains an attended event in the same statement. Returns how many
 * occurrences this run counted.
 */
export async function countAttendance(ctx: Pick<AppContext, "db">): Promise<number> {
  let counted = 0;
  // Each batch claims its rows or finds them claimed by a committed run, so the next one sees
  // fewer; the bound only guards against a bug turning this into a loop.
  for (let i = 0; i < 10_000; i++) {
    const n = await ctx.db.transaction(async (tx) => {
      const claimed = await tx.execute<{ id: string }>(sql`
        UPDATE event_occurrences o SET attendance_counted_at = now()
         WHERE o.id IN (
               SELECT id FROM event_occurrences
                WHERE attendance_counted_at IS NULL AND ends_at < now() AND status <> 'cancelled'
                ORDER BY ends_at LIMIT ${ATTENDANCE_BATCH}
                FOR UPDATE SKIP LOCKED)
           AND o.attendance_counted_at IS NULL
        RETURNING o.id`);
      const ids = claimed.rows.map((r) => r.id);
      if (ids.length === 0) return 0;
      // Members in a fixed order, so two sweeps never wait on each other's rows in a cycle.
      await tx.execute(sql`
        SELECT hearth_points_add(g.community_id, g.user_id, 0, 0, g.n)
          FROM (SELECT o.community_id, r.user_id, count(*)::int AS n
                  FROM event_occurrences o JOIN event_rsvps r ON r.occurrence_id = o.id AND r.status = 'going'
                 WHERE o.id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)
                 GROUP BY 1, 2
                 ORDER BY 1, 2) g`);
      return ids.length;
    });
    if (n === 0) break;
    counted += n;
  }
  return counted;
}

/** The attendance sweep (every minute) and the level-up notification job, registered by app.ts. */
export function levelJobHandlers(ctx: AppContext): Record<string, JobHandler> {
  ctx.worker.addSchedule({ name: "levels-attendance", queue: ATTENDANCE_SWEEP_QUEUE, everyMs: 60_000 });
  return {
    [ATTENDANCE_SWEEP_QUEUE]: async () => {
      const n = await countAttendance(ctx);
      if (n > 0) ctx.log.info({ occurrences: n }, "levels: attendance counted");
    },
    [LEVEL_UP_QUEUE]: async (payload) => {
      await notifyLevelUp(ctx, payload);
    },
  };
}
