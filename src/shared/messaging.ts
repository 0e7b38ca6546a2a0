/**
 * Direct messages (issue 22, docs/decisions/0019-messages-and-reports.md): limits, the rule of who
 * may write to whom, and the texts both sides show. One-to-one conversations between two people who
 * share at least one community; only those two can ever read them.
 */

export const MESSAGE_LIMITS = {
  bodyMax: 4000,
  /** Messages in one page of a conversation (newest first, paged backwards). */
  page: 30,
  maxPage: 100,
  /** Conversations in one page of the inbox. */
  inboxPage: 30,
  /** Characters of the last message shown in the inbox. */
  previewChars: 120,
  /** An unread message older than this goes into the email digest. */
  digestAfterSeconds: 15 * 60,
  /** How long after sending a message can still be edited. */
  editWindowSeconds: 24 * 60 * 60,
  /** The messages around a reported one that its moderators may read (each side). */
  reportContext: 2,
  /** An account younger than this is "new" and limited harder. */
  newAccountDays: 7,
} as const;

/** Messages a person may send: per minute and per day, new accounts and established ones. */
export const MESSAGE_RATE_LIMITS = {
  new: { perMinute: 5, perDay: 50, newConversationsPerDay: 5 },
  established: { perMinute: 30, perDay: 1000, newConversationsPerDay: 50 },
} as const;

/**
 * Who may start a conversation with me (Edit Profile → Privacy). Stored as the spec's
 * `allow_messages`: true is "members", false is "nobody". Existing conversations with someone I
 * no longer accept stay readable, but no new message can be sent in them.
 */
export const MESSAGE_POLICIES = ["members", "nobody"] as const;
export type MessagePolicy = (typeof MESSAGE_POLICIES)[number];
export const messagePolicyOf = (allowMessages: boolean): MessagePolicy => (allowMessages ? "members" : "nobody");
export const MESSAGE_POLICY_LABELS: Record<MessagePolicy, string> = {
  members: "Members of my communities",
  nobody: "Nobody",
};

export const MESSAGING_MESSAGES = {
  /** Refused send, whatever the reason (blocked, no shared community, policy, level): never says which. */
  cannotMessage: "You can't message this person.",
  bodyRequired: "Write a message",
  bodyTooLong: `Messages are limited to ${MESSAGE_LIMITS.bodyMax} characters`,
  rateLimited: "You're sending messages too fast. Please wait a moment.",
  newConversationsLimited: "You've started too many new conversations today. Try again tomorrow.",
  conversationNotFound: "Conversation not found",
  messageNotFound: "Message not found",
  editWindowPassed: "Messages can only be edited for 24 hours",
  cannotMessageSelf: "You can't message yourself",
  levelRequired: (level: number, community: string) => `Reach level ${level} in ${community} to start a conversation`,
  blocked: "Blocked",
  unblocked: "Unblocked",
  deletedMessage: "Message deleted",
  emptyInbox: "No messages yet",
  emptyInboxHint: "Start a conversation from a member's profile or the members list.",
  digestHeading: "Unread messages",
  imageInvalid: "That image can't be attached. Please upload it again.",
  cannotBlockSelf: "You can't block yourself",
  userNotFound: "User not found",
  /** The email digest's line for one conversation (never the messages themselves). */
  digestLine: (name: string, count: number) =>
    count === 1 ? `${name} sent you a message` : `${name} sent you ${count} messages`,
} as const;

/** The realtime event on `user:<id>` when a conversation of theirs changes (a hint: the client refetches). */
export const MESSAGE_EVENT_TYPES = ["message_new", "message_updated", "message_read"] as const;
export type MessageEventType = (typeof MESSAGE_EVENT_TYPES)[number];

/** The inbox address and a conversation's. */
export const messagesHref = (conversationId?: string) =>
  conversationId ? `/messages/${encodeURIComponent(conversationId)}` : "/messages";
