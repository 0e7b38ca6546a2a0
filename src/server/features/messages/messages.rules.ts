import { sql, type SQL } from "drizzle-orm";
import { LEVEL_EXEMPT_ROLES, levelName } from "#shared/levels";
import { MESSAGE_LIMITS, MESSAGE_RATE_LIMITS, MESSAGING_MESSAGES } from "#shared/messaging";
import type { AppContext } from "#server/context";
import type { Queryable } from "#server/db/client";
import { AppError } from "#server/lib/errors";

/**
 * Who may write to whom (issue 22, docs/decisions/0019-messages-and-reports.md). One person may
 * send to another when: they are two people; neither blocked the other; they share a community now
 * (a banned or removed member shares nothing); the other accepts messages (allow_messages); and,
 * to start a new conversation, the sender reaches the community's min_message_level in at least
 * one shared community, or is its owner, admin or moderator.
 */

/**
 * SQL: whether `a` and `b` (text expressions) share a community now, neither banned from it. `a`'s
 * communities are listed once per statement (an uncorrelated subquery: `a` is the viewer, never a
 * column), so a page of conversations probes only each other person's memberships.
 */
const sharesCommunity = (a: SQL, b: SQL) => sql`EXISTS (
  SELECT 1 FROM community_members mb
   WHERE mb.user_id = ${b}
     AND mb.community_id = ANY ((SELECT coalesce(array_agg(ma.community_id), '{}') FROM community_members ma
                                  WHERE ma.user_id = ${a}
                                    AND NOT EXISTS (SELECT 1 FROM community_bans x
                                                     WHERE x.community_id = ma.community_id AND x.user_id = ${a}))::uuid[])
     AND NOT EXISTS (SELECT 1 FROM community_bans x WHERE x.community_id = mb.community_id AND x.user_id = ${b}))`;

/** SQL: whether either of `a` and `b` blocked the other. */
export const blockedEitherWay = (a: SQL, b: SQL) => sql`EXISTS (
  SELECT 1 FROM user_blocks ub
   WHERE (ub.blocker_id = ${a} AND ub.blocked_id = ${b}) OR (ub.blocker_id = ${b} AND ub.blocked_id = ${a}))`;

/**
 * SQL: whether `me` may send to `other` in a conversation that exists (every rule but the level):
 * the inbox's and the conversation's `can_send`.
 */
export const canSendSql = (me: SQL, other: SQL) => sql`(
  ${me} <> ${other}
  AND NOT ${blockedEitherWay(me, other)}
  AND coalesce((SELECT up.allow_messages FROM user_profiles up WHERE up.user_id = ${other}), false)
  AND ${sharesCommunity(me, other)})`;

type Standing = {
  exists: boolean;
  can_send: boolean;
  /** The shared communities' level rule: null when there is no shared community. */
  level_ok: boolean | null;
  /** The lowest level asked by a shared community, and its name (for the level message). */
  min_level: number | null;
  community_name: string | null;
  level_names: string[] | null;
  new_account: boolean;
};

async function standing(db: Queryable, me: string, other: string): Promise<Standing> {
  const res = await db.execute<Standing>(sql`
    WITH shared AS (
      SELECT c.name, c.min_message_level, c.level_names,
             (ma.role = ANY(${sql.param([...LEVEL_EXEMPT_ROLES])}::text[])
               OR coalesce(mp.level, 1) >= c.min_message_level) AS ok
        FROM community_members ma
        JOIN community_members mb ON mb.community_id = ma.community_id AND mb.user_id = ${other}
        JOIN communities c ON c.id = ma.community_id
        LEFT JOIN member_points mp ON mp.community_id = ma.community_id AND mp.user_id = ma.user_id
       WHERE ma.user_id = ${me}
         AND NOT EXISTS (SELECT 1 FROM community_bans x
                          WHERE x.community_id = ma.community_id AND x.user_id IN (${me}, ${other}))
    ), lowest AS (
      SELECT name, min_message_level, level_names FROM shared ORDER BY min_message_level, name LIMIT 1
    )
    SELECT EXISTS (SELECT 1 FROM "user" WHERE id = ${other}) AS exists,
           ${canSendSql(sql`${me}::text`, sql`${other}::text`)} AS can_send,
           (SELECT bool_or(ok) FROM shared) AS level_ok,
           (SELECT min_message_level FROM lowest)::int AS min_level,
           (SELECT name FROM lowest) AS community_name,
           (SELECT level_names FROM lowest) AS level_names,
           coalesce((SELECT u.created_at > now() - make_interval(days => ${MESSAGE_LIMITS.newAccountDays})
                       FROM "user" u WHERE u.id = ${me}), true) AS new_account`);
  return res.rows[0];
}

const cannotMessage = () => new AppError("FORBIDDEN", MESSAGING_MESSAGES.cannotMessage);

/**
 * Refuses a send from `me` to `other` unless every rule holds; `starting` adds the level rule.
 * Every refusal is the same 403 cannotMessage, except the level one: it is decided before blocks
 * and the other's choice and only from the sender's own standing in communities both belong to,
 * so naming the level reveals nothing the sender could not see as a member. Answers whether the
 * sender's account is new (for the rate limits).
 */
export async function requireMaySend(
  db: Queryable,
  me: string,
  other: string,
  starting: boolean,
): Promise<{ newAccount: boolean }> {
  if (me === other) throw new AppError("FORBIDDEN", MESSAGING_MESSAGES.cannotMessageSelf);
  const s = await standing(db, me, other);
  if (!s.exists || s.level_ok === null) throw cannotMessage();
  if (starting && !s.level_ok) {
    const level = s.min_level ?? 1;
    const name = levelName(s.level_names, level);
    throw new AppError("FORBIDDEN", MESSAGING_MESSAGES.levelRequired(level, s.community_name ?? ""), {
      level,
      level_name: name,
    });
  }
  if (!s.can_send) throw cannotMessage();
  return { newAccount: s.new_account };
}

/**
 * The message rate limits (MESSAGE_RATE_LIMITS): per minute and per day for every message, and per
 * day for new conversations; an account younger than newAccountDays gets the lower numbers. Counted
 * in PostgreSQL by the project's limiter, so every process enforces the same limit.
 */
export async function hitMessageLimits(
  ctx: AppContext,
  userId: string,
  newAccount: boolean,
  what: { message: boolean; starting: boolean },
) {
  const limits = MESSAGE_RATE_LIMITS[newAccount ? "new" : "established"];
  if (what.message) {
    try {
      await ctx.rateLimiter.hit(`dm-minute:${userId}`, { limit: limits.perMinute, windowSeconds: 60 });
      await ctx.rateLimiter.hit(`dm-day:${userId}`, { limit: limits.perDay, windowSeconds: 86_400 });
    } catch (err) {
      throw relabel(err, MESSAGING_MESSAGES.rateLimited);
    }
  }
  if (!what.starting) return;
  try {
    await ctx.rateLimiter.hit(`dm-new:${userId}`, { limit: limits.newConversationsPerDay, windowSeconds: 86_400 });
  } catch (err) {
    throw relabel(err, MESSAGING_MESSAGES.newConversationsLimited);
  }
}

const relabel = (err: unknown, message: string) =>
  err instanceof AppError && err.code === "RATE_LIMITED" ? new AppError("RATE_LIMITED", message, err.details) : err;
