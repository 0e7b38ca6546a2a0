import { z } from "zod";
import {
  REPORT_ACTIONS,
  REPORT_LIMITS,
  REPORT_MESSAGES,
  REPORT_REASONS,
  REPORT_STATUSES,
  REPORT_TARGETS,
} from "./reports";

/**
 * POST /api/reports. A message or profile is reported in a community the reporter shares with its
 * author (community_id required for them; for a post or comment it is the item's community).
 */
export const createReportSchema = z
  .object({
    target: z.enum(REPORT_TARGETS),
    target_id: z.string().min(1).max(100),
    community_id: z.uuid().optional(),
    reason: z.enum(REPORT_REASONS),
    text: z.string().trim().max(REPORT_LIMITS.otherTextMax, REPORT_MESSAGES.otherTextTooLong).default(""),
  })
  .strict()
  .refine((v) => v.reason !== "other" || v.text.length > 0, {
    message: REPORT_MESSAGES.otherTextRequired,
    path: ["text"],
  });

/** POST /api/communities/:idOrSlug/reports/:caseId/decide */
export const decideReportSchema = z
  .object({
    action: z.enum(REPORT_ACTIONS),
    /** Told to the author for remove, warn and ban (required for them); ignored for dismiss. */
    reason: z.string().trim().max(REPORT_LIMITS.actionReasonMax).default(""),
  })
  .strict()
  .refine((v) => v.action === "dismiss" || v.reason.length > 0, {
    message: REPORT_MESSAGES.reasonRequired,
    path: ["reason"],
  });

/** PUT /api/communities/:idOrSlug/reports/settings */
export const reportSettingsSchema = z
  .object({
    hide_threshold: z.number().int().min(REPORT_LIMITS.hideThresholdMin).max(REPORT_LIMITS.hideThresholdMax),
    /** Messages (issue 22): the level a member needs here to start a chat through this community (1: anyone). */
    min_message_level: z.number().int().min(1).max(9),
  })
  .partial()
  .strict();

const person = z.object({
  id: z.string(),
  username: z.string(),
  full_name: z.string(),
  avatar_url: z.string().nullable(),
});

/** One reported item with every report on it (the moderators' queue). Reporters are shown to moderators, never to the author. */
export const reportCaseDto = z.object({
  id: z.string(),
  target: z.enum(REPORT_TARGETS),
  target_id: z.string(),
  status: z.enum(REPORT_STATUSES),
  /** Hidden pending review (threshold reached). */
  hidden: z.boolean(),
  author: person.nullable(),
  /** The reported content as the moderators may see it: text, title, and for a message the messages around it. */
  content: z.object({
    title: z.string().nullable(),
    body: z.string(),
    href: z.string().nullable(),
    context: z
      .array(
        z.object({
          id: z.string(),
          sender_id: z.string(),
          body: z.string(),
          created_at: z.string(),
          reported: z.boolean(),
        }),
      )
      .nullable(),
  }),
  reports: z.array(
    z.object({ reporter: person, reason: z.enum(REPORT_REASONS), text: z.string(), created_at: z.string() }),
  ),
  report_count: z.number().int(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});
export type ReportCase = z.infer<typeof reportCaseDto>;
