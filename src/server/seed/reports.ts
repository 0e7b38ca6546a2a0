import { sql } from "drizzle-orm";
import { REPORT_LIMITS, REPORT_MESSAGES, type ReportReason } from "#shared/reports";
import type { DemoAccount, SeededCommunity, Tx } from "./communities";

const HOUR = 60 * 60 * 1000;

/** The community with open reports: owner@hearth.test is an admin there, so the queue can be shown. */
const COMMUNITY = "newsletter-operators";

/** Two reported posts: the first by as many members as hide it, the second by fewer (still shown). */
const REPORTED: { reports: [ReportReason, string][] }[] = [
  {
    reports: [
      ["spam", ""],
      ["spam", ""],
      ["other", "Same link posted in three threads today"],
    ],
  },
  {
    reports: [
      ["off_topic", ""],
      ["harassment", ""],
    ],
  },
];

/**
 * Open reports for the demo (issue 22): in Newsletter Operators two recent posts by plain members
 * are reported by other members; the first reached the hide threshold and is hidden pending review
 * (its author was told), the second waits below it. The community's owner and moderators other
 * than the demo accounts heard of each case once, so the demo accounts' notifications (which the
 * browser journeys count) stay as they were.
 */
export async function seedReports(input: {
  tx: Tx;
  seeded: SeededCommunity[];
  accounts: Record<DemoAccount, { id: string }>;
  now: number;
}): Promise<void> {
  const { tx, seeded, accounts, now } = input;
  const c = seeded.find((s) => s.slug === COMMUNITY);
  if (!c) throw new Error(`No demo community ${COMMUNITY} for the reports demo`);
  const demo = new Set([accounts.owner.id, accounts.member.id]);
  const plain = c.members.filter((m) => m.role === "member" && !demo.has(m.userId)).map((m) => m.userId);
  const res = await tx.execute<{ id: string; author_id: string }>(sql`
    SELECT id, author_id FROM posts
     WHERE community_id = ${c.id} AND is_approved AND deleted_at IS NULL AND author_id = ANY(${sql.param(plain)}::text[])
     ORDER BY created_at DESC, id
     LIMIT ${REPORTED.length}`);
  if (res.rows.length < REPORTED.length) throw new Error(`Too few member posts in ${c.slug} for the reports demo`);
  const staff = c.members
    .filter((m) => (m.role === "owner" || m.role === "admin" || m.role === "moderator") && !demo.has(m.userId))
    .map((m) => m.userId);
  for (const [i, item] of REPORTED.entries()) {
    const post = res.rows[i];
    const reporters = plain.filter((id) => id !== post.author_id).slice(i * 5, i * 5 + item.reports.length);
    const hidden = item.reports.length >= REPORT_LIMITS.defaultHideThreshold;
    const at = new Date(now - (i + 2) * HOUR);
    const kase = await tx.execute<{ id: string }>(sql`
      INSERT INTO report_cases (community_id, target, target_id, author_id, report_count, hidden_at, created_at)
      VALUES (${c.id}, 'post', ${post.id}, ${post.author_id}, ${reporters.length}, ${hidden ? at : null}, ${at})
      RETURNING id`);
    const caseId = kase.rows[0].id;
    for (const [j, [reason, text]] of item.reports.entries()) {
      await tx.execute(sql`
        INSERT INTO reports (case_id, reporter_id, reason, text, created_at)
        VALUES (${caseId}, ${reporters[j]}, ${reason}, ${text}, ${new Date(at.getTime() + j * 10 * 60 * 1000)})`);
    }
    const notices: [string, string, string, Record<string, unknown>][] = staff.map((id) => [
      id,
      "report_new",
      REPORT_MESSAGES.newReportNotice("post", c.def.name),
      { tab: "admin", case_id: caseId },
    ]);
    if (hidden) {
      await tx.execute(sql`UPDATE posts SET hidden_at = ${at} WHERE id = ${post.id}`);
      notices.push([
        post.author_id,
        "content_hidden",
        REPORT_MESSAGES.hiddenNotice("post", c.def.name),
        { post_id: post.id },
      ]);
    }
    for (const [userId, type, title, data] of notices) {
      await tx.execute(sql`
        INSERT INTO notifications (user_id, community_id, type, title, body, data, created_at)
        VALUES (${userId}, ${c.id}, ${type}, ${title}, '', ${JSON.stringify(data)}::jsonb, ${at})`);
    }
  }
}
