import { sql } from "drizzle-orm";
import {
  REPORT_MESSAGES,
  REPORT_TARGET_LABELS,
  type ReportAction,
  type ReportStatus,
  type ReportTarget,
} from "#shared/reports";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { deleteComment } from "#server/features/comments/index";
import { removeMember } from "#server/features/members/index";
import { deletePost, forgetFeed, forgetPostPage } from "#server/features/posts/index";
import { isUuid, requireCommunity, requirePermission } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { notify } from "#server/lib/notifications";
import { publishPostEvent, type PostVisibility } from "#server/lib/realtime";
import { findReportCase } from "./reports.queue";
import { reportNotFound } from "./reports.service";

// Deciding a case (issue 22, docs/decisions/0020-reports.md): dismiss restores, remove deletes, warn
// records a warning (and restores), ban bans the author and removes the item. The author is told
// what happened and why; every reporter is told the outcome; nobody is told who acted.

const STATUS_OF: Record<ReportAction, ReportStatus> = {
  dismiss: "dismissed",
  remove: "removed",
  warn: "warned",
  ban: "banned",
};

type CaseRow = {
  id: string;
  target: ReportTarget;
  target_id: string;
  author_id: string | null;
  status: ReportStatus;
  community_name: string;
};

/** Ignores "not found": the item may already be gone (its author deleted it). */
const unlessGone = (p: Promise<unknown>) =>
  p.catch((err: unknown) => {
    if (!(err instanceof AppError && err.code === "NOT_FOUND")) throw err;
  });

/** Removes the reported post, comment or message as a moderator would (profiles stay). */
async function removeItem(ctx: AppContext, viewer: Viewer, tx: Queryable, c: CaseRow) {
  if (c.target === "post") await unlessGone(deletePost({ ctx, viewer, postId: c.target_id }));
  else if (c.target === "comment") await unlessGone(deleteComment({ ctx, viewer, commentId: c.target_id }));
  else if (c.target === "message") {
    await tx.execute(
      sql`UPDATE direct_messages SET deleted_at = now() WHERE id = ${c.target_id}::uuid AND deleted_at IS NULL`,
    );
  }
}

/** Shows a hidden post or comment again; a post comes back to the live feeds. Returns the post to forget. */
async function restoreItem(tx: Queryable, communityId: string, c: CaseRow): Promise<string | null> {
  if (c.target === "post") {
    const res = await tx.execute<{ visibility: PostVisibility; is_approved: boolean }>(sql`
      UPDATE posts SET hidden_at = NULL WHERE id = ${c.target_id}::uuid AND hidden_at IS NOT NULL
      RETURNING visibility, is_approved`);
    const row = res.rows[0];
    if (row?.is_approved) {
      await publishPostEvent(tx, {
        communityId,
        postId: c.target_id,
        type: "post_created",
        visibility: row.visibility,
      });
    }
    return row ? c.target_id : null;
  }
  if (c.target === "comment") {
    const res = await tx.execute<{ post_id: string }>(sql`
      UPDATE comments SET hidden_at = NULL WHERE id = ${c.target_id}::uuid AND hidden_at IS NOT NULL
      RETURNING post_id`);
    return res.rows[0]?.post_id ?? null;
  }
  return null;
}

/** A short excerpt of the removed item, for its author's notice. */
async function excerptOf(db: Queryable, c: CaseRow): Promise<string> {
  const res = await db.execute<{ text: string | null }>(sql`
    SELECT left(btrim(regexp_replace(coalesce(
             (SELECT content FROM posts WHERE ${c.target} = 'post' AND id = ${c.target === "post" ? c.target_id : null}::uuid),
             (SELECT content FROM comments WHERE ${c.target} = 'comment' AND id = ${c.target === "comment" ? c.target_id : null}::uuid),
             (SELECT body FROM direct_messages WHERE ${c.target} = 'message' AND id = ${c.target === "message" ? c.target_id : null}::uuid),
             ''), '\\s+', ' ', 'g')), 140) AS text`);
  return res.rows[0]?.text ?? "";
}

/**
 * Decides an open case (owner, admin, moderator; ban: can(role, 'ban_users'), within the role
 * hierarchy of removeMember). The case row is locked for the whole decision, so of two decisions
 * at once the second finds it decided (409).
 */
export async function decideReport({
  ctx,
  viewer,
  idOrSlug,
  caseId,
  input,
}: {
  ctx: AppContext;
  viewer: Viewer;
  idOrSlug: string;
  caseId: string;
  input: { action: ReportAction; reason: string };
}) {
  const { community, role } = await requireCommunity({ db: ctx.db, idOrSlug, userId: viewer.id });
  requirePermission(role, "moderate_posts");
  if (input.action === "ban") requirePermission(role, "ban_users");
  if (!isUuid(caseId)) throw reportNotFound();
  const forget: (string | null)[] = [];
  await ctx.db.transaction(async (tx) => {
    const res = await tx.execute<CaseRow>(sql`
      SELECT rc.id, rc.target, rc.target_id, rc.author_id, rc.status, c.name AS community_name
        FROM report_cases rc JOIN communities c ON c.id = rc.community_id
       WHERE rc.id = ${caseId} AND rc.community_id = ${community.id}
         FOR UPDATE OF rc`);
    const c = res.rows[0];
    if (!c) throw reportNotFound();
    if (c.status !== "open") throw new AppError("CONFLICT", REPORT_MESSAGES.alreadyDecided);
    if (c.author_id === viewer.id && role !== "owner") throw new AppError("FORBIDDEN", REPORT_MESSAGES.cannotDecideOwn);
    if (input.action === "remove" && c.target === "profile") {
      throw new AppError("BAD_REQUEST", REPORT_MESSAGES.cannotRemoveProfile);
    }
    if ((input.action === "warn" || input.action === "ban") && !c.author_id) {
      throw new AppError("BAD_REQUEST", REPORT_MESSAGES.authorGone);
    }
    const what = REPORT_TARGET_LABELS[c.target];
    const removes = input.action === "remove" || (input.action === "ban" && c.target !== "profile");
    const excerpt = removes ? await excerptOf(tx, c) : "";
    if (input.action === "ban") {
      // The members list's ban: its permission and role hierarchy (a moderator never gets here).
      await removeMember({
        ctx,
        viewer,
        idOrSlug: community.id,
        userId: c.author_id!,
        ban: true,
        reason: input.reason,
      });
    }
    if (removes) await removeItem(ctx, viewer, tx, c);
    else forget.push(await restoreItem(tx, community.id, c));
    if (input.action === "warn") {
      await tx.execute(sql`
        INSERT INTO user_warnings (community_id, user_id, post_id, issued_by, reason)
        VALUES (${community.id}, ${c.author_id}, ${c.target === "post" ? c.target_id : null}::uuid, ${viewer.id},
                ${input.reason})`);
    }
    await tx.execute(sql`
      UPDATE report_cases
         SET status = ${STATUS_OF[input.action]}, decided_by = ${viewer.id}, decided_at = now(),
             decision_reason = ${input.reason}, hidden_at = NULL
       WHERE id = ${c.id}`);
    // The author hears what happened and why; nobody is named (actorId null).
    if (c.author_id && removes) {
      await notify(tx, {
        recipients: [c.author_id],
        actorId: null,
        communityId: community.id,
        type: "content_removed",
        title: REPORT_MESSAGES.removedNotice(what, c.community_name, input.reason),
        body: excerpt,
        data: { case_id: c.id },
      });
    }
    if (c.author_id && input.action === "warn") {
      await notify(tx, {
        recipients: [c.author_id],
        actorId: null,
        communityId: community.id,
        type: "user_warned",
        title: REPORT_MESSAGES.warnedNotice(c.community_name, input.reason),
        body: "",
        data: { case_id: c.id },
      });
    }
    const reporters = await tx.execute<{ reporter_id: string }>(
      sql`SELECT reporter_id FROM reports WHERE case_id = ${c.id}`,
    );
    await notify(tx, {
      recipients: reporters.rows.map((r) => r.reporter_id),
      actorId: null,
      communityId: community.id,
      type: "report_outcome",
      title: REPORT_MESSAGES.outcomeNotice(
        what,
        input.action === "dismiss" ? "dismissed" : input.action === "remove" ? "removed" : "actioned",
      ),
      body: "",
    });
  });
  for (const postId of forget) {
    if (!postId) continue;
    forgetFeed(ctx, { community: community.id, post: { id: postId, created: false, author: null } });
    forgetPostPage(ctx, community.id, postId);
  }
  const decided = await findReportCase(ctx.db, viewer.id, community.id, caseId);
  return decided!;
}
