import { sql, type SQL } from "drizzle-orm";
import { PERMISSIONS } from "#shared/roles";
import { memberTierSql } from "#server/lib/entitlement-access";

/*
 * Who sees and who may attend an event (issue 19): the one rule, as SQL, that the list, the month
 * view, the detail, RSVPs, the .ics files, the calendar feed, notifications and reminders all use.
 *
 * - An event is seen only by members of its community (any role), and only while the community shows
 *   its calendar, except by its owner and admins, who manage it either way. Visitors, public
 *   community or not, see no event: the calendar is what membership gives.
 * - An event for 'admins' is seen by the owner and admins only.
 * - May attend (RSVP, the meeting link): the owner and admins always; any member for 'members';
 *   for 'tiers', a member holding an open entitlement to one of the event's tiers.
 *
 * `o` is the alias of the event_occurrences row; `m` the alias of the viewer's community_members row,
 * `c` of the communities row; the fragments read them, so queries join them under those names.
 */

/** The roles that manage events (PERMISSIONS.manage_events), as SQL over the membership alias `m`. */
const MANAGER = `m.role IN (${PERMISSIONS.manage_events.map((r) => `'${r}'`).join(", ")})`;

/** Joins the viewer's membership and the community for occurrence alias `o` (put after FROM event_occurrences o). */
export const viewerJoinSql = (userRef: SQL | string): SQL =>
  sql`JOIN community_members m ON m.community_id = o.community_id AND m.user_id = ${userRef}
      JOIN communities c ON c.id = o.community_id`;

/** Whether the joined viewer (m, c) sees occurrence o at all. */
export const occurrenceSeenSql = (): SQL =>
  sql.raw(`((c.show_calendar OR ${MANAGER}) AND (o.audience <> 'admins' OR ${MANAGER}))`);

/** Whether the joined viewer (m) may attend occurrence o (RSVP, see the meeting link). */
export const mayAttendSql = (userRef: SQL | string): SQL =>
  sql`(${sql.raw(MANAGER)} OR o.audience = 'members'
       OR (o.audience = 'tiers' AND coalesce(${memberTierSql(sql`o.community_id`, userRef)} = ANY(o.tier_ids), false)))`;

/** Whether the joined viewer (m) may create, edit and cancel events (PERMISSIONS.manage_events). */
export const mayManageSql = (): SQL => sql.raw(MANAGER);

/**
 * For statements that start elsewhere (notifications, reminders, the feed): whether user `userRef`
 * sees occurrence `o` and may attend it, as one EXISTS.
 */
export const userMayAttendSql = (userRef: SQL | string): SQL =>
  sql`EXISTS (SELECT 1 FROM community_members m JOIN communities c ON c.id = m.community_id
                WHERE m.community_id = o.community_id AND m.user_id = ${userRef}
                  AND ${occurrenceSeenSql()} AND ${mayAttendSql(userRef)})`;

/** Whether user `userRef` sees occurrence `o` (may or may not attend), as one EXISTS. */
export const userSeesSql = (userRef: SQL | string): SQL =>
  sql`EXISTS (SELECT 1 FROM community_members m JOIN communities c ON c.id = m.community_id
                WHERE m.community_id = o.community_id AND m.user_id = ${userRef} AND ${occurrenceSeenSql()})`;
