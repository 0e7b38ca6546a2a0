import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { REPORT_REASONS, REPORT_STATUSES, REPORT_TARGETS } from "#shared/reports";
import { user } from "./auth";
import { communities } from "./communities";
import { createdAt, textRef, ts, uuidPk, uuidRef } from "./columns";

// Reports (issue 22, docs/decisions/0020-reports.md).

/**
 * One reported item in one community: the moderators' unit of work. Reports on it while it is open
 * gather here; after a decision, a new report opens a new case.
 */
export const reportCases = pgTable(
  "report_cases",
  {
    id: uuidPk(),
    communityId: uuidRef("community_id", () => communities.id),
    target: text("target", { enum: REPORT_TARGETS }).notNull(),
    /** The post, comment or message id, or the reported person's user id for a profile. */
    targetId: text("target_id").notNull(),
    /** Who wrote it (or whose profile it is): the one warned, banned or told. */
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    status: text("status", { enum: REPORT_STATUSES }).notNull().default("open"),
    /** Distinct reporters (one person's repeated reports count once). */
    reportCount: integer("report_count").notNull().default(0),
    hiddenAt: ts("hidden_at"),
    decidedBy: text("decided_by").references(() => user.id, { onDelete: "set null" }),
    decidedAt: ts("decided_at"),
    decisionReason: text("decision_reason"),
    createdAt: createdAt(),
  },
  (t) => [
    // One open case per item.
    uniqueIndex("report_cases_open_key")
      .on(t.communityId, t.target, t.targetId)
      .where(sql`status = 'open'`),
    index("report_cases_queue_idx").on(t.communityId, t.status, t.createdAt, t.id),
  ],
);

export const reports = pgTable(
  "reports",
  {
    id: uuidPk(),
    caseId: uuidRef("case_id", () => reportCases.id),
    reporterId: textRef("reporter_id", () => user.id),
    reason: text("reason", { enum: REPORT_REASONS }).notNull(),
    text: text("text").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("reports_case_reporter_key").on(t.caseId, t.reporterId),
    index("reports_reporter_idx").on(t.reporterId, t.createdAt),
  ],
);
