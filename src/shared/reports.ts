import { HIDDEN_PENDING_REVIEW } from "./posts";

/**
 * Reports (issue 22, docs/decisions/0020-reports.md): members report a post, a
 * comment, a message or a profile in a community; its owners, admins and moderators act on them.
 */

export const REPORT_TARGETS = ["post", "comment", "message", "profile"] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

export const REPORT_REASONS = ["spam", "harassment", "inappropriate", "off_topic", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: "Spam",
  harassment: "Harassment",
  inappropriate: "Inappropriate",
  off_topic: "Off-topic",
  other: "Other",
};

/** A reported item's case: open until someone acts. */
export const REPORT_STATUSES = ["open", "dismissed", "removed", "warned", "banned"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_ACTIONS = ["dismiss", "remove", "warn", "ban"] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];
export const REPORT_ACTION_LABELS: Record<ReportAction, string> = {
  dismiss: "Dismiss",
  remove: "Remove",
  warn: "Warn author",
  ban: "Ban author",
};

export const REPORT_LIMITS = {
  /** Distinct reporters after which a post or comment is hidden pending review (community setting). */
  defaultHideThreshold: 3,
  hideThresholdMin: 1,
  hideThresholdMax: 50,
  otherTextMax: 500,
  /** The reason a moderator gives the author. */
  actionReasonMax: 500,
  queuePage: 20,
  /** Reports one person may file per hour. */
  perHour: 20,
} as const;

// The marker on a hidden post or comment lives in posts.ts: the feed's first load imports it, and the
// build would bring this whole module with it.
export { HIDDEN_PENDING_REVIEW };

export const REPORT_MESSAGES = {
  submitted: "Thanks. The moderators will review it.",
  alreadyReported: "You already reported this. The moderators will review it.",
  otherTextRequired: "Please say what is wrong",
  otherTextTooLong: `Please keep it under ${REPORT_LIMITS.otherTextMax} characters`,
  cannotReportOwn: "You can't report your own content",
  notFound: "Not found",
  rateLimited: "You've sent many reports. Please try again later.",
  emptyQueue: "No open reports",
  hiddenPendingReview: HIDDEN_PENDING_REVIEW,
  /** What the author is told when their post or comment is hidden after reports. */
  hiddenNotice: (what: string, community: string) =>
    `Your ${what} in ${community} was hidden pending review after members reported it.`,
  /** What the author is told when a moderator removes it, with the rule or reason given. */
  removedNotice: (what: string, community: string, reason: string) =>
    `Your ${what} in ${community} was removed by the moderators: ${reason}`,
  warnedNotice: (community: string, reason: string) => `You received a warning in ${community}: ${reason}`,
  /** What the reporter is told; never who acted. */
  outcomeNotice: (what: string, outcome: "removed" | "dismissed" | "actioned") =>
    outcome === "dismissed"
      ? `The ${what} you reported was reviewed and left up.`
      : outcome === "removed"
        ? `The ${what} you reported was removed. Thanks for reporting it.`
        : `The moderators took action on the ${what} you reported. Thanks for reporting it.`,
  reasonRequired: "Please give the author a reason",
  /** A reader of a public community who is not a member: only members report. */
  joinToReport: "Join the community to report this",
  /** Who to report a message or a profile to: a community both people are in. */
  communityRequired: "Choose the community whose moderators should review it",
  alreadyDecided: "This report was already decided",
  /** A profile stays; warn or ban its owner instead. */
  cannotRemoveProfile: "A profile can't be removed: warn or ban its owner instead",
  /** A moderator's own content goes to the others (only the owner decides reports about their own). */
  cannotDecideOwn: "Another moderator should decide reports about your own content",
  /** The author's account is gone: nobody to warn or ban. */
  authorGone: "Its author's account no longer exists",
  /** What moderators are told once per reported item (reporters are not named). */
  newReportNotice: (what: string, community: string) => `A ${what} was reported in ${community}`,
} as const;

export const REPORT_TARGET_LABELS: Record<ReportTarget, string> = {
  post: "post",
  comment: "comment",
  message: "message",
  profile: "profile",
};

/** A line under each reason in the report dialog. */
export const REPORT_REASON_HINTS: Record<ReportReason, string> = {
  spam: "Ads, scams or the same thing posted again and again",
  harassment: "Insults, threats or targeting someone",
  inappropriate: "Offensive, explicit or unsafe content",
  off_topic: "Doesn't belong in this community",
  other: "Something else: tell the moderators below",
};
