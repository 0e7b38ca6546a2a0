/**
 * Who may join a community and how (issue 20, docs/decisions/0016-levels-and-requests.md).
 *
 * `join_policy` is independent of `visibility` (who may read):
 * - open: anyone may JOIN (public communities only; today's behaviour);
 * - request: applicants answer up to 3 questions, owners and admins approve or decline in the Admin
 *   tab (or every request is approved at once while `auto_approve` is on);
 * - invite: only an invite link or e-mail invitation lets someone in (today's private).
 * A private community is never open; it may take requests, and is still left out of the directory
 * unless the owner lists it (`listed`).
 */

export const JOIN_POLICIES = ["open", "request", "invite"] as const;
export type JoinPolicy = (typeof JOIN_POLICIES)[number];

export const JOIN_POLICY_LABELS: Record<JoinPolicy, { label: string; description: string }> = {
  open: { label: "Open", description: "Anyone can join right away" },
  request: { label: "By request", description: "People answer your questions and an admin approves them" },
  invite: { label: "Invite only", description: "Only people you invite can join" },
};

export const JOIN_REQUEST_STATUSES = ["pending", "approved", "declined", "withdrawn"] as const;
export type JoinRequestStatus = (typeof JOIN_REQUEST_STATUSES)[number];

export const JOIN_REQUEST_LIMITS = {
  questionsMax: 3,
  questionMax: 200,
  answerMax: 1000,
  reasonMax: 500,
  /** Days a declined applicant waits before applying again (the owner's setting). */
  cooldownDaysDefault: 7,
  cooldownDaysMax: 365,
  /** Requests approved or declined in one bulk action. */
  bulkMax: 100,
  /** A page of pending requests in the Admin tab. */
  page: 20,
} as const;

export const JOIN_MESSAGES = {
  privateOpen: "A private community can't be open to everyone: choose by request or invite only",
  questionRequired: "A question cannot be empty",
  questionTooLong: `A question must be at most ${JOIN_REQUEST_LIMITS.questionMax} characters`,
  tooManyQuestions: `Ask at most ${JOIN_REQUEST_LIMITS.questionsMax} questions`,
  answerRequired: "Please answer every question",
  answerTooLong: `An answer must be at most ${JOIN_REQUEST_LIMITS.answerMax} characters`,
  answersCount: "Answer each question once",
  emailRequired: "Please enter your email",
  emailInvalid: "Please enter a valid email",
  reasonTooLong: `A reason must be at most ${JOIN_REQUEST_LIMITS.reasonMax} characters`,
  alreadyPending: "Your request is waiting for approval",
  alreadyMember: "You're already a member",
  cooldown: (date: string) => `You can ask to join again on ${date}`,
  notTakingRequests: "This community doesn't take requests",
  requestNotFound: "Request not found",
  requestDecided: "This request was already answered",
  /** JOIN on a community that takes requests, or only invites. */
  requestNeeded: "This community takes requests: answer its questions to ask to join",
  inviteOnly: "Only people invited by an admin can join this community",
  approvedBody: "Say hello to the community.",
  approvedCheckoutBody: "Your request was approved: choose a plan to join.",
  declinedNoReason: "The admins did not give a reason.",
  /** Shown on the landing after applying. */
  pendingTitle: "Request sent",
  pendingBody: "An admin will review your answers. We'll let you know by notification and email.",
  approvedTitle: (community: string) => `You're in! Welcome to ${community}`,
  declinedTitle: (community: string) => `Your request to join ${community} was declined`,
} as const;
