import { z } from "zod";
import { JOIN_MESSAGES, JOIN_POLICIES, JOIN_REQUEST_LIMITS, JOIN_REQUEST_STATUSES } from "./membership";

const question = z
  .string({ error: JOIN_MESSAGES.questionRequired })
  .trim()
  .min(1, JOIN_MESSAGES.questionRequired)
  .max(JOIN_REQUEST_LIMITS.questionMax, JOIN_MESSAGES.questionTooLong);

/** Membership settings (Settings → Membership; PATCH /api/communities/:id/membership). */
export const updateMembershipSchema = z
  .object({
    join_policy: z.enum(JOIN_POLICIES, { error: "Choose who can join" }),
    questions: z.array(question).max(JOIN_REQUEST_LIMITS.questionsMax, JOIN_MESSAGES.tooManyQuestions),
    ask_email: z.boolean(),
    auto_approve: z.boolean(),
    /** A private community shown in the directory (its landing takes requests, its content stays private). */
    listed: z.boolean(),
    cooldown_days: z
      .number()
      .int()
      .min(0, "Days must be 0 or more")
      .max(JOIN_REQUEST_LIMITS.cooldownDaysMax, `Days must be at most ${JOIN_REQUEST_LIMITS.cooldownDaysMax}`),
  })
  .partial()
  .strict();
export type UpdateMembershipInput = z.infer<typeof updateMembershipSchema>;

export const membershipSettingsDto = z.object({
  join_policy: z.enum(JOIN_POLICIES),
  questions: z.array(z.string()),
  ask_email: z.boolean(),
  auto_approve: z.boolean(),
  listed: z.boolean(),
  cooldown_days: z.number().int(),
});
export type MembershipSettings = z.infer<typeof membershipSettingsDto>;

/** Applying (POST /api/communities/:id/join-requests): one answer per question, in order. */
export const applySchema = z
  .object({
    answers: z.array(
      z
        .string({ error: JOIN_MESSAGES.answerRequired })
        .trim()
        .min(1, JOIN_MESSAGES.answerRequired)
        .max(JOIN_REQUEST_LIMITS.answerMax, JOIN_MESSAGES.answerTooLong),
    ),
    email: z.email(JOIN_MESSAGES.emailInvalid).max(254).optional(),
  })
  .strict();
export type ApplyInput = z.infer<typeof applySchema>;

/** The viewer's own request, on the community view (null: none that matters now). */
export const myJoinRequestDto = z.object({
  id: z.uuid(),
  status: z.enum(JOIN_REQUEST_STATUSES),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  /** The reason given with a decline, shown to the applicant as text. */
  reason: z.string().nullable(),
  /** When a declined applicant may apply again (ISO), null when they may now. */
  retry_after: z.string().nullable(),
});
export type MyJoinRequest = z.infer<typeof myJoinRequestDto>;

/** A request as owners and admins see it in the Admin tab. */
export const joinRequestDto = z.object({
  id: z.uuid(),
  status: z.enum(JOIN_REQUEST_STATUSES),
  user: z.object({
    user_id: z.string(),
    username: z.string(),
    full_name: z.string(),
    avatar_url: z.string().nullable(),
  }),
  /** Question and answer pairs, as text. */
  answers: z.array(z.object({ question: z.string(), answer: z.string() })),
  email: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  reason: z.string().nullable(),
});
export type JoinRequest = z.infer<typeof joinRequestDto>;

/** Approve or decline, one or many (POST /api/communities/:id/join-requests/decide). */
export const decideJoinRequestsSchema = z
  .object({
    ids: z
      .array(z.uuid("Unknown request"))
      .min(1, "Choose at least one request")
      .max(JOIN_REQUEST_LIMITS.bulkMax, `At most ${JOIN_REQUEST_LIMITS.bulkMax} requests at once`),
    decision: z.enum(["approve", "decline"]),
    reason: z.string().trim().max(JOIN_REQUEST_LIMITS.reasonMax, JOIN_MESSAGES.reasonTooLong).optional(),
  })
  .strict();
export type DecideJoinRequestsInput = z.infer<typeof decideJoinRequestsSchema>;
