import { sql, type SQL } from "drizzle-orm";
import { PAYMENT_MESSAGES } from "#shared/payments";
import type { Queryable } from "#server/db/client";
import { AppError } from "./errors";

/*
 * The SQL twin of `entitlementOpen` in src/shared/payments.ts (which the tests compare it with):
 * whether an entitlement row opens what it sells now. Every query that reads paid access uses
 * these, never the provider and never a copy of the rule.
 */

/** The open-entitlement predicate over the entitlements row aliased `alias`, as text (for statements written as strings). */
export const entitlementOpenText = (alias = "e") => `(${alias}.status IN ('trialing', 'active')
    OR (${alias}.status = 'past_due' AND ${alias}.grace_ends_at > now())
    OR (${alias}.status = 'canceled' AND ${alias}.current_period_end > now()))`;

/** The same predicate as a Drizzle SQL fragment. */
export const entitlementOpenSql = (alias = "e"): SQL => sql.raw(entitlementOpenText(alias));

/**
 * Whether user `userRef` holds an open entitlement to course `courseRef` (SQL expressions, e.g.
 * `co.id` and a bound id): a course bought once and not refunded.
 */
export function courseEntitlementSql(courseRef: SQL, userRef: SQL | string): SQL {
  return sql`EXISTS (SELECT 1 FROM entitlements ce WHERE ce.kind = 'course' AND ce.course_id = ${courseRef}
    AND ce.user_id = ${userRef} AND ${entitlementOpenSql("ce")})`;
}

/**
 * The tier a user holds in a community through an open entitlement, or NULL (a free or comped
 * member): the scalar subquery courses limited to tiers compare with.
 */
export function memberTierSql(communityRef: SQL, userRef: SQL | string): SQL {
  return sql`(SELECT te.tier_id FROM entitlements te WHERE te.kind = 'community' AND te.community_id = ${communityRef}
    AND te.user_id = ${userRef} AND ${entitlementOpenSql("te")} ORDER BY te.created_at DESC LIMIT 1)`;
}

/**
 * Joining without paying (JOIN, an invite) is for free communities and those with a free tier; a
 * community that sells only paid tiers answers 402 (the membership comes with a checkout) unless
 * the person still holds an open entitlement there.
 */
export async function requireFreeEntry(db: Queryable, community: { id: string; type: string }, userId: string) {
  if (community.type !== "paid") return;
  const res = await db.execute<{ free: boolean; paid: boolean; holds: boolean }>(sql`
    SELECT bool_or(is_free) AS free, bool_or(NOT is_free) AS paid,
           EXISTS (SELECT 1 FROM entitlements e WHERE e.user_id = ${userId} AND e.community_id = ${community.id}
                      AND e.kind = 'community' AND ${entitlementOpenSql("e")}) AS holds
      FROM community_tiers WHERE community_id = ${community.id} AND archived_at IS NULL`);
  const tiers = res.rows[0];
  // Someone who paid and left comes back for the rest of their paid period.
  if (tiers?.paid && !tiers.free && !tiers.holds)
    throw new AppError("PAYMENT_REQUIRED", PAYMENT_MESSAGES.checkoutNeeded);
}
