import { and, eq, sql } from "drizzle-orm";
import { JOIN_MESSAGES, JOIN_REQUEST_LIMITS, type JoinPolicy, type JoinRequestStatus } from "#shared/membership";
import type { ApplyInput, DecideJoinRequestsInput, UpdateMembershipInput } from "#shared/membership.schemas";
import { MSG } from "#shared/messages";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { communities, joinRequests } from "#server/db/schema/index";
import {
  addMember,
  communityNotFound,
  findCommunityRow,
  isBanned,
  requireCommunityPermission,
  roleIn,
  type CommunityRow,
} from "#server/lib/community-access";
import { requireFreeEntry } from "#server/lib/entitlement-access";
import { AppError } from "#server/lib/errors";
import { actionMail } from "#server/lib/mail";
import { communityAdmins, notify } from "#server/lib/notifications";
import { RATE_RULES } from "#server/lib/rate-limit";

// Join requests (issue 20, docs/decisions/0016-levels-and-requests.md): the membership settings,
// applying with answers, withdrawing, and the Admin tab's queue with its bulk decisions.

type Req<Extra = unknown> = { ctx: AppContext; viewer: Viewer; idOrSlug: string } & Extra;

// ---------------------------------------------------------------------------------------------
// Settings

export function toMembershipSettings(c: CommunityRow) {
  return {
    join_policy: c.joinPolicy,
    questions: c.requestQuestions,
    ask_email: c.requestAskEmail,
    auto_approve: c.autoApprove,
    listed: c.listed,
    cooldown_days: c.requestCooldownDays,
  };
}

export async function findMembershipSettings({ ctx, viewer, idOrSlug }: Req) {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "manage_settings");
  return toMembershipSettings(community);
}

/**
 * Owners and admins change who may join. A private community is never open. Turning auto-approve
 * on (with requests taken) approves the requests waiting, as if each had just been made.
 */
export async function updateMembershipSettings({
  ctx,
  viewer,
  idOrSlug,
  input,
}: Req<{ input: UpdateMembershipInput }>) {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "manage_settings");
  const policy: JoinPolicy = input.join_policy ?? community.joinPolicy;
  if (community.visibility === "private" && input.join_policy === "open")
    throw new AppError("VALIDATION", JOIN_MESSAGES.privateOpen);
  const set: Partial<typeof communities.$inferInsert> = { updatedAt: new Date() };
  if (input.join_policy !== undefined) set.joinPolicy = input.join_policy;
  if (input.questions !== undefined) set.requestQuestions = input.questions;
  if (input.ask_email !== undefined) set.requestAskEmail = input.ask_email;
  if (input.auto_approve !== undefined) set.autoApprove = input.auto_approve;
  if (input.listed !== undefined) set.listed = input.listed;
  if (input.cooldown_days !== undefined) set.requestCooldownDays = input.cooldown_days;
  const approveWaiting = input.auto_approve === true && !community.autoApprove && policy === "request";
  const updated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.update(communities).set(set).where(eq(communities.id, community.id)).returning();
    if (approveWaiting) {
      const waiting = await tx.execute<{ id: string }>(
        sql`SELECT id FROM join_requests WHERE community_id = ${community.id} AND status = 'pending' ORDER BY created_at, id`,
      );
      await decideInTx(ctx, tx, row, viewer.id, {
        ids: waiting.rows.map((r) => r.id),
        decision: "approve",
      });
    }
    return row;
  });
  // The directory and public pages read these columns; other processes hear of it from the database.
  ctx.publicCache.clear();
  return toMembershipSettings(updated);
}

// ---------------------------------------------------------------------------------------------
// The applicant's side

const iso = (v: Date | string | null) => (v ? new Date(v).toISOString() : null);

type MyRequestRow = {
  id: string;
  status: JoinRequestStatus;
  created_at: string;
  decided_at: string | null;
  reason: string | null;
  retry_after: string | null;
};

/** The person's latest request to this community, with when a declined one may ask again. */
async function latestRequest(db: Queryable, community: CommunityRow, userId: string) {
  const res = await db.execute<MyRequestRow>(sql`
    SELECT r.id, r.status, r.created_at, r.decided_at, r.reason,
           CASE WHEN r.status = 'declined'
                 AND r.decided_at + make_interval(days => ${community.requestCooldownDays}) > now()
                THEN r.decided_at + make_interval(days => ${community.requestCooldownDays}) END AS retry_after
      FROM join_requests r
     WHERE r.community_id = ${community.id} AND r.user_id = ${userId}
     ORDER BY r.created_at DESC LIMIT 1`);
  const r = res.rows[0];
  return r
    ? {
        ...r,
        created_at: iso(r.created_at)!,
        decided_at: iso(r.decided_at),
        retry_after: iso(r.retry_after),
      }
    : null;
}

/**
 * The community an applicant acts on. A private community is seen only by its members and, while
 * it takes requests, by applicants; anyone else is answered exactly as for a missing community.
 */
async function applicantCommunity(ctx: AppContext, idOrSlug: string, userId: string | null) {
  const community = await findCommunityRow(ctx.db, idOrSlug);
  if (!community) throw communityNotFound();
  const role = await roleIn(ctx.db, community.id, userId);
  if (community.visibility === "private" && !role && community.joinPolicy !== "request") {
    const own = userId
      ? await ctx.db.execute(
          sql`SELECT 1 FROM join_requests WHERE community_id = ${community.id} AND user_id = ${userId} LIMIT 1`,
        )
      : { rows: [] };
    if (own.rows.length === 0) throw communityNotFound();
  }
  return { community, role };
}

/**
 * What the request form needs (a private community's gate has no community view): its name,
 * policy, questions, and the viewer's latest request.
 */
export async function findMyRequest({
  ctx,
  viewer,
  idOrSlug,
}: {
  ctx: AppContext;
  viewer: Viewer | null;
  idOrSlug: string;
}) {
  const { community, role } = await applicantCommunity(ctx, idOrSlug, viewer?.id ?? null);
  return {
    community: {
      id: community.id,
      slug: community.slug,
      name: community.name,
      icon_url: community.visibility === "private" ? null : community.iconUrl,
      visibility: community.visibility,
      type: community.type,
    },
    join_policy: community.joinPolicy,
    questions: community.requestQuestions,
    ask_email: community.requestAskEmail,
    viewer_role: role,
    request: viewer ? await latestRequest(ctx.db, community, viewer.id) : null,
  };
}

/** Whether the person's latest request to the community was approved (a paid community's checkout is theirs then). */
export async function hasApprovedRequest(db: Queryable, communityId: string, userId: string) {
  const res = await db.execute<{ status: string }>(sql`
    SELECT status FROM join_requests WHERE community_id = ${communityId} AND user_id = ${userId}
     ORDER BY created_at DESC LIMIT 1`);
  return res.rows[0]?.status === "approved";
}

/**
 * JOIN on a community that is not open: refused, unless the person's request was approved (they
 * left since, or a paid community sends them on to its checkout).
 */
export async function requireJoinAllowed(db: Queryable, community: CommunityRow, userId: string) {
  if (community.joinPolicy === "open") return;
  if (community.joinPolicy === "request") {
    if (await hasApprovedRequest(db, community.id, userId)) return;
    throw new AppError("FORBIDDEN", JOIN_MESSAGES.requestNeeded);
  }
  throw new AppError("FORBIDDEN", JOIN_MESSAGES.inviteOnly);
}

/** Applying: one answer per question, in order; the e-mail when asked. */
export async function applyToJoin({ ctx, viewer, idOrSlug, input }: Req<{ input: ApplyInput }>) {
  await ctx.rateLimiter.hit(`join-request:${viewer.id}`, RATE_RULES.inviteAcceptPerUser);
  const { community, role } = await applicantCommunity(ctx, idOrSlug, viewer.id);
  if (role) throw new AppError("CONFLICT", JOIN_MESSAGES.alreadyMember);
  if (community.joinPolicy !== "request") throw new AppError("BAD_REQUEST", JOIN_MESSAGES.notTakingRequests);
  if (await isBanned(ctx.db, community.id, viewer.id)) throw new AppError("FORBIDDEN", MSG.bannedFromCommunity);
  const questions = community.requestQuestions;
  if (input.answers.length !== questions.length) {
    throw new AppError(
      "VALIDATION",
      input.answers.length < questions.length ? JOIN_MESSAGES.answerRequired : JOIN_MESSAGES.answersCount,
    );
  }
  if (community.requestAskEmail && !input.email) throw new AppError("VALIDATION", JOIN_MESSAGES.emailRequired);
  const answers = questions.map((question, i) => ({ question, answer: input.answers[i] }));
  const result = await ctx.db.transaction(async (tx) => {
    // Applications of one person to one community take turns (the cooldown reads the last one).
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7243301, hashtext(${`${community.id}:${viewer.id}`}))`);
    const last = await latestRequest(tx, community, viewer.id);
    if (last?.status === "pending") throw new AppError("CONFLICT", JOIN_MESSAGES.alreadyPending);
    if (last?.retry_after) throw new AppError("CONFLICT", JOIN_MESSAGES.cooldown(formatDay(last.retry_after)));
    const [made] = await tx
      .insert(joinRequests)
      .values({
        communityId: community.id,
        userId: viewer.id,
        answers,
        email: community.requestAskEmail ? (input.email ?? null) : null,
      })
      .returning({ id: joinRequests.id });
    if (community.autoApprove) {
      const [outcome] = await decideInTx(ctx, tx, community, null, { ids: [made.id], decision: "approve" });
      return { id: made.id, joined: outcome?.joined ?? false };
    }
    await notify(tx, {
      recipients: await communityAdmins(tx, community.id),
      actorId: viewer.id,
      communityId: community.id,
      type: "join_request",
      title: "{actor} asked to join",
      body: "Their answers are waiting in the Admin tab.",
      data: { tab: "admin", request_id: made.id },
    });
    return { id: made.id, joined: false };
  });
  return {
    request: (await latestRequest(ctx.db, community, viewer.id))!,
    joined: result.joined,
    slug: community.slug,
  };
}

/** The applicant takes back their pending request. */
export async function withdrawRequest({ ctx, viewer, idOrSlug }: Req) {
  const { community } = await applicantCommunity(ctx, idOrSlug, viewer.id);
  const res = await ctx.db
    .update(joinRequests)
    .set({ status: "withdrawn", decidedAt: new Date() })
    .where(
      and(
        eq(joinRequests.communityId, community.id),
        eq(joinRequests.userId, viewer.id),
        eq(joinRequests.status, "pending"),
      ),
    )
    .returning({ id: joinRequests.id });
  // As leaving without being a member: 400, so a 404 keeps meaning "no such community".
  if (res.length === 0) throw new AppError("BAD_REQUEST", JOIN_MESSAGES.requestNotFound);
}

/** A date as people read it in the cooldown message (UTC day). */
const formatDay = (isoDate: string) =>
  new Date(isoDate).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

// ---------------------------------------------------------------------------------------------
// The Admin tab's queue

type Cursor = { at: string; id: string };
const encodeCursor = (c: Cursor) => Buffer.from(`${c.at}|${c.id}`).toString("base64url");
function decodeCursor(raw: string | undefined): Cursor | null {
  if (!raw) return null;
  const [at, id] = Buffer.from(raw, "base64url").toString("utf8").split("|");
  if (!at || Number.isNaN(Date.parse(at)) || !/^[0-9a-f-]{36}$/.test(id ?? "")) {
    throw new AppError("VALIDATION", "Invalid cursor");
  }
  return { at, id };
}

/** Someone who joined another way (an invite) while their request waited is no longer asking. */
const notMemberYet = sql`NOT EXISTS (SELECT 1 FROM community_members m
                                      WHERE m.community_id = r.community_id AND m.user_id = r.user_id)`;

/** Pending requests oldest first, keyset paged, with how many are waiting (members since left out). */
export async function findJoinRequests({ ctx, viewer, idOrSlug, cursor }: Req<{ cursor?: string }>) {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "invite_members");
  const after = decodeCursor(cursor);
  const limit = JOIN_REQUEST_LIMITS.page;
  const res = await ctx.db.execute<{
    id: string;
    status: JoinRequestStatus;
    user_id: string;
    username: string | null;
    full_name: string | null;
    avatar_url: string | null;
    answers: { question: string; answer: string }[];
    email: string | null;
    created_at: string;
    at: string;
    decided_at: string | null;
    reason: string | null;
  }>(sql`
    SELECT r.id, r.status, r.user_id, p.username, p.full_name, p.avatar_url, r.answers, r.email,
           r.created_at, to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
           r.decided_at, r.reason
      FROM join_requests r
      LEFT JOIN user_profiles p ON p.user_id = r.user_id
     WHERE r.community_id = ${community.id} AND r.status = 'pending' AND ${notMemberYet}
       ${after ? sql`AND (r.created_at, r.id) > (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
     ORDER BY r.created_at, r.id
     LIMIT ${limit + 1}`);
  const count = await ctx.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM join_requests r
         WHERE r.community_id = ${community.id} AND r.status = 'pending' AND ${notMemberYet}`,
  );
  const rows = res.rows.slice(0, limit);
  const last = rows.at(-1);
  return {
    items: rows.map((r) => ({
      id: r.id,
      status: r.status,
      user: {
        user_id: r.user_id,
        username: r.username ?? "",
        full_name: r.full_name ?? "",
        avatar_url: r.avatar_url,
      },
      answers: r.answers.map((a) => ({ question: String(a.question), answer: String(a.answer) })),
      email: r.email,
      created_at: iso(r.created_at)!,
      decided_at: iso(r.decided_at),
      reason: r.reason,
    })),
    count: count.rows[0]?.n ?? 0,
    next_cursor: res.rows.length > limit && last ? encodeCursor({ at: last.at, id: last.id }) : null,
  };
}

export type DecisionOutcome = {
  id: string;
  status: "approved" | "declined" | "skipped";
  /** Why a request was skipped (already answered, not found, banned), or null. */
  message: string | null;
  /** Whether the approval made them a member now (a paid community's checkout comes first). */
  joined: boolean;
};

/** Approve or decline many: requests already answered (or not this community's) are skipped, not errors. */
export async function decideJoinRequests({ ctx, viewer, idOrSlug, input }: Req<{ input: DecideJoinRequestsInput }>) {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "invite_members");
  const results = await ctx.db.transaction((tx) => decideInTx(ctx, tx, community, viewer.id, input));
  return {
    results,
    approved: results.filter((r) => r.status === "approved").length,
    declined: results.filter((r) => r.status === "declined").length,
    skipped: results.filter((r) => r.status === "skipped").length,
  };
}

/**
 * Decides pending requests inside the caller's transaction: the rows are locked, so two admins
 * deciding the same request at once decide it once. An approval adds the member through the same
 * path as JOIN (member_count, the admins' join notification); a community sold only through paid
 * tiers leaves the approved applicant to its checkout. The applicant is notified and e-mailed.
 */
async function decideInTx(
  ctx: AppContext,
  tx: Queryable,
  community: CommunityRow,
  deciderId: string | null,
  input: DecideJoinRequestsInput,
): Promise<DecisionOutcome[]> {
  const ids = [...new Set(input.ids)];
  if (ids.length === 0) return [];
  const res = await tx.execute<{ id: string; user_id: string; status: JoinRequestStatus; email: string | null }>(sql`
    SELECT r.id, r.user_id, r.status, u.email
      FROM join_requests r JOIN "user" u ON u.id = r.user_id
     WHERE r.community_id = ${community.id} AND r.id = ANY(${`{${ids.join(",")}}`}::uuid[])
     ORDER BY r.created_at, r.id
       FOR UPDATE OF r`);
  const found = new Map(res.rows.map((r) => [r.id, r]));
  const reason = input.reason?.trim() ? input.reason.trim() : null;
  const outcomes: DecisionOutcome[] = [];
  for (const id of ids) {
    const row = found.get(id);
    if (!row) {
      outcomes.push({ id, status: "skipped", message: JOIN_MESSAGES.requestNotFound, joined: false });
      continue;
    }
    if (row.status !== "pending") {
      outcomes.push({ id, status: "skipped", message: JOIN_MESSAGES.requestDecided, joined: false });
      continue;
    }
    const approve = input.decision === "approve";
    if (approve && (await isBanned(tx, community.id, row.user_id))) {
      outcomes.push({ id, status: "skipped", message: MSG.bannedFromCommunity, joined: false });
      continue;
    }
    await tx
      .update(joinRequests)
      .set({ status: approve ? "approved" : "declined", reason, decidedBy: deciderId, decidedAt: new Date() })
      .where(eq(joinRequests.id, id));
    let joined = false;
    let checkout = false;
    if (approve) {
      try {
        await requireFreeEntry(tx, community, row.user_id);
        joined = await addMember(tx, { community, userId: row.user_id });
      } catch (err) {
        if (!(err instanceof AppError && err.code === "PAYMENT_REQUIRED")) throw err;
        checkout = true;
      }
    }
    const title = approve ? JOIN_MESSAGES.approvedTitle(community.name) : JOIN_MESSAGES.declinedTitle(community.name);
    const body = approve
      ? checkout
        ? JOIN_MESSAGES.approvedCheckoutBody
        : JOIN_MESSAGES.approvedBody
      : (reason ?? "");
    await notify(tx, {
      recipients: [row.user_id],
      actorId: deciderId,
      communityId: community.id,
      type: approve ? "join_approved" : "join_declined",
      title,
      body,
      data: { request_id: id },
    });
    await ctx.mailer.send(
      actionMail(
        row.email!,
        title,
        approve ? body : reason ? `The reason given: ${reason}` : JOIN_MESSAGES.declinedNoReason,
        approve ? (checkout ? "Choose a plan" : "Open the community") : "See the community",
        `${ctx.config.publicUrl}/community/${community.slug}`,
      ),
      { db: tx },
    );
    outcomes.push({ id, status: approve ? "approved" : "declined", message: null, joined });
  }
  return outcomes;
}
