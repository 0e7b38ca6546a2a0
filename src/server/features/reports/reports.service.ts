import { sql } from "drizzle-orm";
import { can, isRole } from "#shared/roles";
import { REPORT_LIMITS, REPORT_MESSAGES, REPORT_TARGET_LABELS, type ReportTarget } from "#shared/reports";
import type { z } from "zod";
import type { createReportSchema } from "#shared/reports.schemas";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { forgetFeed, forgetPostPage } from "#server/features/posts/index";
import { isUuid } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { notify } from "#server/lib/notifications";
import { requirePost } from "#server/lib/post-access";
import { publishPostEvent, type PostVisibility } from "#server/lib/realtime";

// Filing a report (issue 22, docs/decisions/0020-reports.md): who may report what, one open case per
// item, one count per reporter, and the threshold that hides a post or comment pending review.

export type CreateReportInput = z.output<typeof createReportSchema>;

/** Reports one person may file per hour (all processes). */
const REPORT_RATE = { limit: REPORT_LIMITS.perHour, windowSeconds: 3600 };

/** Anything the reporter may not read answers exactly like something that does not exist. */
export const reportNotFound = () => new AppError("NOT_FOUND", REPORT_MESSAGES.notFound);

/** The reported item as the reporter may see it: where it is reported, and whose it is. */
export type ReportedItem = {
  target: ReportTarget;
  targetId: string;
  communityId: string;
  communityName: string;
  authorId: string;
  /** For a comment: its post (the link its author is sent to). */
  postId: string | null;
};

/** Whether both people are members of the community (a message or profile is reported where both are). */
async function sharedCommunity(db: Queryable, communityId: string | undefined, a: string, b: string) {
  if (!communityId) throw new AppError("VALIDATION", REPORT_MESSAGES.communityRequired, { field: "community_id" });
  const res = await db.execute<{ name: string }>(sql`
    SELECT c.name FROM communities c
      JOIN community_members ma ON ma.community_id = c.id AND ma.user_id = ${a}
      JOIN community_members mb ON mb.community_id = c.id AND mb.user_id = ${b}
     WHERE c.id = ${communityId}`);
  if (!res.rows[0]) throw reportNotFound();
  return { communityId, communityName: res.rows[0].name };
}

/**
 * A post or comment the reporter may read (requirePost: its community, visibility, approval and
 * hidden state), in a community they are a member of.
 */
async function readablePost(ctx: AppContext, viewer: Viewer, postId: string) {
  const access = await requirePost(ctx.db, postId, viewer.id).catch(() => {
    throw reportNotFound();
  });
  if (!isRole(access.role)) throw new AppError("FORBIDDEN", REPORT_MESSAGES.joinToReport);
  const res = await ctx.db.execute<{ name: string }>(
    sql`SELECT name FROM communities WHERE id = ${access.community.id}`,
  );
  return { access, communityName: res.rows[0].name };
}

/** Finds the item and checks the reporter may report it (404 for what they cannot read, 400 for their own). */
export async function resolveItem(ctx: AppContext, viewer: Viewer, input: CreateReportInput): Promise<ReportedItem> {
  const { target, target_id: targetId } = input;
  if (target !== "profile" && !isUuid(targetId)) throw reportNotFound();
  let item: ReportedItem;
  if (target === "post") {
    const { access, communityName } = await readablePost(ctx, viewer, targetId);
    item = {
      target,
      targetId,
      communityId: access.community.id,
      communityName,
      authorId: access.post.author_id,
      postId: targetId,
    };
  } else if (target === "comment") {
    const res = await ctx.db.execute<{ post_id: string; author_id: string; hidden: boolean }>(sql`
      SELECT post_id, author_id, hidden_at IS NOT NULL AS hidden FROM comments
       WHERE id = ${targetId} AND deleted_at IS NULL`);
    const c = res.rows[0];
    if (!c) throw reportNotFound();
    const { access, communityName } = await readablePost(ctx, viewer, c.post_id);
    if (c.hidden && c.author_id !== viewer.id && !can(access.role, "moderate_posts")) throw reportNotFound();
    item = {
      target,
      targetId,
      communityId: access.community.id,
      communityName,
      authorId: c.author_id,
      postId: c.post_id,
    };
  } else if (target === "message") {
    // Only the two people of the conversation can read a message; only the one who received it reports it.
    const res = await ctx.db.execute<{ sender_id: string }>(sql`
      SELECT dm.sender_id FROM direct_messages dm
        JOIN conversation_members cm ON cm.conversation_id = dm.conversation_id AND cm.user_id = ${viewer.id}
       WHERE dm.id = ${targetId} AND dm.deleted_at IS NULL`);
    const m = res.rows[0];
    if (!m) throw reportNotFound();
    if (m.sender_id === viewer.id) throw new AppError("BAD_REQUEST", REPORT_MESSAGES.cannotReportOwn);
    const shared = await sharedCommunity(ctx.db, input.community_id, viewer.id, m.sender_id);
    item = { target, targetId, ...shared, authorId: m.sender_id, postId: null };
  } else {
    if (targetId === viewer.id) throw new AppError("BAD_REQUEST", REPORT_MESSAGES.cannotReportOwn);
    const shared = await sharedCommunity(ctx.db, input.community_id, viewer.id, targetId);
    item = { target, targetId, ...shared, authorId: targetId, postId: null };
  }
  if (item.authorId === viewer.id) throw new AppError("BAD_REQUEST", REPORT_MESSAGES.cannotReportOwn);
  return item;
}

/** The community's owners, admins and moderators: who hear of a new case. */
async function moderatorsOf(db: Queryable, communityId: string): Promise<string[]> {
  const res = await db.execute<{ user_id: string }>(sql`
    SELECT user_id FROM community_members
     WHERE community_id = ${communityId} AND role IN ('owner', 'admin', 'moderator')`);
  return res.rows.map((r) => r.user_id);
}

/**
 * Hides a post or comment once its open case has as many distinct reporters as the community's
 * threshold: one UPDATE guarded by `hidden_at IS NULL`, so it happens once whatever runs at the
 * same time. Its author is told (no reporter named), and a hidden post leaves the live feeds.
 * Returns the post whose caches to drop, or null when nothing was hidden.
 */
async function hideIfDue(tx: Queryable, item: ReportedItem, caseId: string, count: number) {
  if (item.target !== "post" && item.target !== "comment") return null;
  const table = sql.raw(item.target === "post" ? "posts" : "comments");
  const res = await tx.execute<{ visibility: PostVisibility; is_approved: boolean }>(sql`
    UPDATE ${table} x SET hidden_at = now()
      FROM communities c, posts p
     WHERE x.id = ${item.targetId} AND x.hidden_at IS NULL AND x.deleted_at IS NULL
       AND c.id = ${item.communityId} AND ${count} >= c.report_hide_threshold
       AND p.id = ${item.postId}
    RETURNING p.visibility, p.is_approved`);
  const hidden = res.rows[0];
  if (!hidden) return null;
  await tx.execute(sql`UPDATE report_cases SET hidden_at = now() WHERE id = ${caseId}`);
  const what = REPORT_TARGET_LABELS[item.target];
  await notify(tx, {
    recipients: [item.authorId],
    actorId: null,
    communityId: item.communityId,
    type: "content_hidden",
    title: REPORT_MESSAGES.hiddenNotice(what, item.communityName),
    postId: item.postId,
    ...(item.target === "comment" ? { data: { comment_id: item.targetId } } : {}),
  });
  if (item.target === "post" && hidden.is_approved) {
    // Everyone who may see the post hears it is gone; the author's feed refetches and keeps it, flagged.
    await publishPostEvent(tx, {
      communityId: item.communityId,
      postId: item.targetId,
      type: "post_deleted",
      visibility: hidden.visibility,
    });
  }
  return item.postId;
}

/**
 * Files a report. A person's repeated reports of one item count once (also across its earlier
 * cases): the answer says so and nothing new is stored. The case is upserted on its unique open
 * index, which locks its row until commit, so concurrent reports of one item count one by one.
 */
export async function createReport({
  ctx,
  viewer,
  input,
}: {
  ctx: AppContext;
  viewer: Viewer;
  input: CreateReportInput;
}) {
  await ctx.rateLimiter.hit(`report:${viewer.id}`, REPORT_RATE);
  const item = await resolveItem(ctx, viewer, input);
  const outcome = await ctx.db.transaction(async (tx) => {
    const prior = await tx.execute(sql`
      SELECT 1 FROM reports r JOIN report_cases rc ON rc.id = r.case_id
       WHERE rc.community_id = ${item.communityId} AND rc.target = ${item.target} AND rc.target_id = ${item.targetId}
         AND r.reporter_id = ${viewer.id}
       LIMIT 1`);
    if (prior.rows.length) return { created: false, hiddenPost: null };
    const kase = await tx.execute<{ id: string; inserted: boolean }>(sql`
      INSERT INTO report_cases (community_id, target, target_id, author_id)
      VALUES (${item.communityId}, ${item.target}, ${item.targetId}, ${item.authorId})
      ON CONFLICT (community_id, target, target_id) WHERE status = 'open'
      DO UPDATE SET report_count = report_cases.report_count
      RETURNING id, (xmax = 0) AS inserted`);
    const { id: caseId, inserted } = kase.rows[0];
    const added = await tx.execute(sql`
      INSERT INTO reports (case_id, reporter_id, reason, text)
      VALUES (${caseId}, ${viewer.id}, ${input.reason}, ${input.text})
      ON CONFLICT (case_id, reporter_id) DO NOTHING
      RETURNING id`);
    if (!added.rows.length) return { created: false, hiddenPost: null };
    const counted = await tx.execute<{ report_count: number }>(sql`
      UPDATE report_cases SET report_count = report_count + 1 WHERE id = ${caseId} RETURNING report_count`);
    if (inserted) {
      // One notice per case, not per report; it names neither the reporter nor the content.
      const author = item.authorId;
      const moderators = (await moderatorsOf(tx, item.communityId)).filter((id) => id !== viewer.id && id !== author);
      await notify(tx, {
        recipients: moderators,
        actorId: null,
        communityId: item.communityId,
        type: "report_new",
        title: REPORT_MESSAGES.newReportNotice(REPORT_TARGET_LABELS[item.target], item.communityName),
        body: "",
        data: { tab: "admin", case_id: caseId },
      });
    }
    const hiddenPost = await hideIfDue(tx, item, caseId, counted.rows[0].report_count);
    return { created: true, hiddenPost };
  });
  if (outcome.hiddenPost) {
    // A hidden post leaves its author's kept pending posts too; a hidden comment, none.
    const author = item.target === "post" ? item.authorId : null;
    forgetFeed(ctx, { community: item.communityId, post: { id: outcome.hiddenPost, created: false, author } });
    forgetPostPage(ctx, item.communityId, outcome.hiddenPost);
  }
  return outcome.created
    ? { status: 201 as const, body: { message: REPORT_MESSAGES.submitted } }
    : { status: 200 as const, body: { message: REPORT_MESSAGES.alreadyReported } };
}
