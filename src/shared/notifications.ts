/** Notification types, their per-community switches and the limits both sides use (SPEC §3, §9). */

export const NOTIFICATION_TYPES = [
  "post_like",
  "post_reply",
  "community_join",
  "post_approved",
  "other",
  /** Calendar (issue 19): a new event, a changed or cancelled one, a reminder to those going. */
  "event_new",
  "event_changed",
  "event_cancelled",
  "event_reminder",
  /** Levels and join requests (issue 20): a level reached, a request waiting (owners and admins), a decision. */
  "level_up",
  "join_request",
  "join_approved",
  "join_declined",
  /**
   * Reports (issue 22): a report waiting (owners, admins, moderators), the outcome told to a reporter,
   * and the author told their post or comment was hidden, removed (with the reason) or that they were warned.
   */
  "report_new",
  "report_outcome",
  "content_hidden",
  "content_removed",
  "user_warned",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const COMMUNITY_FLAGS = ["posts", "comments", "announcements", "events"] as const;
export type CommunityFlag = (typeof COMMUNITY_FLAGS)[number];
export type CommunityFlags = Record<CommunityFlag, boolean>;

/** Every per-community switch starts on (SPEC §9). */
export const DEFAULT_COMMUNITY_FLAGS: CommunityFlags = {
  posts: true,
  comments: true,
  announcements: true,
  events: true,
};

/** Which per-community switch silences which type (docs/decisions/0006-notifications.md). */
export const FLAG_OF_TYPE: Record<NotificationType, CommunityFlag> = {
  post_like: "posts",
  post_approved: "posts",
  post_reply: "comments",
  other: "announcements",
  community_join: "events",
  event_new: "events",
  event_changed: "events",
  event_cancelled: "events",
  event_reminder: "events",
  level_up: "posts",
  join_request: "events",
  join_approved: "announcements",
  join_declined: "announcements",
  report_new: "posts",
  report_outcome: "announcements",
  content_hidden: "announcements",
  content_removed: "announcements",
  user_warned: "announcements",
};

/** What each switch covers, as the Notifications tab explains it. */
export const COMMUNITY_FLAG_LABELS: Record<CommunityFlag, { label: string; description: string }> = {
  posts: { label: "Posts", description: "Likes on your posts, and your posts being approved" },
  comments: { label: "Comments", description: "Comments on your posts and replies to your comments" },
  announcements: { label: "Announcements", description: "Messages from the community's moderators" },
  events: {
    label: "Events",
    description:
      "New, changed and cancelled events, reminders before those you're going to, and new members joining (owners and admins)",
  },
};

export const NOTIFICATION_LIMITS = {
  /** The bell's dropdown (SPEC §9). */
  dropdown: 10,
  /** A page of /notifications. */
  page: 20,
  maxPage: 50,
  /** Unread counts are exact up to this; the badge shows 9+ long before. */
  countCap: 999,
  /** A digest waits this long for more to gather (and for the user to read them in the app)… */
  digestDelaySeconds: 5 * 60,
  /** …and goes out at most this often per user (issue 7: every 15 minutes). */
  digestIntervalSeconds: 15 * 60,
  /** Notifications listed in one digest; the rest are counted. */
  digestListed: 10,
} as const;

/**
 * Where a notification leads: its post on the community page (SPEC §2), its event on the community's
 * calendar (issue 19), else the community.
 */
export function notificationHref(n: {
  community_id: string | null;
  post_id: string | null;
  occurrence_id?: string | null;
  /** A tab of the community page it is about (data.tab: 'leaderboards' for a level, 'admin' for requests). */
  tab?: string | null;
}): string {
  if (!n.community_id) return "/notifications";
  const base = `/community/${encodeURIComponent(n.community_id)}`;
  if (n.post_id) return `${base}#post-${n.post_id}`;
  if (n.occurrence_id) return `${base}?tab=calendar&event=${encodeURIComponent(n.occurrence_id)}`;
  return n.tab ? `${base}?tab=${encodeURIComponent(n.tab)}` : base;
}
