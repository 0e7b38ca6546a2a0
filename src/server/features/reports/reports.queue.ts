import { sql } from "drizzle-orm";
import { MESSAGE_LIMITS } from "#shared/messaging";
import { REPORT_LIMITS } from "#shared/reports";
import type { ReportCase } from "#shared/reports.schemas";
import type { AppContext, Viewer } from "#server/context";
import type { Queryable } from "#server/db/client";
import { communities } from "#server/db/schema/index";
import { requireCommunityPermission } from "#server/lib/community-access";
import { AppError } from "#server/lib/errors";
import { eq } from "drizzle-orm";

// The moderators' queue (issue 22): each case with the content as moderators may see it, its author
// and every report; the open count for the badge; the community's report settings.

const person = (id: string) =>
  sql.raw(`(SELECT json_build_object('id', u.user_id, 'username', u.username, 'full_name', u.full_name,
                                      'avatar_url', u.avatar_url)
              FROM user_profiles u WHERE u.user_id = ${id})`);

const iso = (col: string) => sql.raw(`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

/**
 * The cases of a community (`where` narrows them), open ones first, newest first. A message shows
 * with only MESSAGE_LIMITS.reportContext messages either side of it, never the rest of its
 * conversation. A moderator who wrote the reported item sees no reporters.
 */
async function selectCases(db: Queryable, viewerId: string, where: ReturnType<typeof sql>, limit: number) {
  const n = MESSAGE_LIMITS.reportContext;
  const res = await db.execute<ReportCase & { closed: number; created_at_raw: string }>(sql`
    SELECT rc.id, rc.target, rc.target_id, rc.status, rc.report_count,
           ${iso("rc.created_at")} AS created_at, ${iso("rc.created_at")} AS created_at_raw,
           (rc.status <> 'open')::int AS closed,
           CASE WHEN rc.decided_at IS NULL THEN NULL ELSE ${iso("rc.decided_at")} END AS decided_at,
           coalesce(p.hidden_at, cm.hidden_at) IS NOT NULL AS hidden,
           ${person("rc.author_id")} AS author,
           json_build_object(
             'title', CASE rc.target WHEN 'profile' THEN nullif(pr.full_name, '') END,
             'body', coalesce(p.content, cm.content, dm.body, pr.bio, ''),
             'href', CASE rc.target WHEN 'post' THEN '/post/' || p.id
                                    WHEN 'comment' THEN '/post/' || cm.post_id
                                    WHEN 'profile' THEN '/u/' || pr.username END,
             'context', CASE WHEN rc.target = 'message' AND dm.id IS NOT NULL THEN (
               SELECT json_agg(json_build_object('id', x.id, 'sender_id', x.sender_id, 'body', x.body,
                                                 'created_at', ${iso("x.created_at")}, 'reported', x.id = dm.id)
                               ORDER BY x.seq)
                 FROM (
                   (SELECT b.id, b.seq, b.sender_id, b.body, b.created_at FROM direct_messages b
                     WHERE b.conversation_id = dm.conversation_id AND b.seq < dm.seq AND b.deleted_at IS NULL
                     ORDER BY b.seq DESC LIMIT ${n})
                   UNION ALL SELECT dm.id, dm.seq, dm.sender_id, dm.body, dm.created_at
                   UNION ALL
                   (SELECT b.id, b.seq, b.sender_id, b.body, b.created_at FROM direct_messages b
                     WHERE b.conversation_id = dm.conversation_id AND b.seq > dm.seq AND b.deleted_at IS NULL
                     ORDER BY b.seq LIMIT ${n})) x) END) AS content,
           CASE WHEN rc.author_id = ${viewerId} THEN '[]'::json ELSE coalesce((
             SELECT json_agg(json_build_object('reporter', ${person("r.reporter_id")}, 'reason', r.reason,
                                               'text', r.text, 'created_at', ${iso("r.created_at")})
                             ORDER BY r.created_at, r.id)
               FROM reports r WHERE r.case_id = rc.id), '[]'::json) END AS reports
      FROM report_cases rc
      LEFT JOIN posts p ON p.id = CASE WHEN rc.target = 'post' THEN rc.target_id::uuid END
      LEFT JOIN comments cm ON cm.id = CASE WHEN rc.target = 'comment' THEN rc.target_id::uuid END
      LEFT JOIN direct_messages dm ON dm.id = CASE WHEN rc.target = 'message' THEN rc.target_id::uuid END
      LEFT JOIN user_profiles pr ON rc.target = 'profile' AND pr.user_id = rc.target_id
     WHERE ${where}
     ORDER BY (rc.status <> 'open'), rc.created_at DESC, rc.id DESC
     LIMIT ${limit}`);
  return res.rows;
}

type Cursor = { closed: number; t: string; id: string };

/** What each call on a community's reports gets. */
type OnCommunity = { ctx: AppContext; viewer: Viewer; idOrSlug: string };

function decodeCursor(cursor: string | undefined): Cursor | null {
  if (!cursor) return null;
  try {
    const c = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Cursor;
    if ((c.closed !== 0 && c.closed !== 1) || Number.isNaN(Date.parse(c.t)) || !/^[0-9a-f-]{36}$/.test(c.id)) throw 0;
    return c;
  } catch {
    throw new AppError("VALIDATION", "Invalid cursor");
  }
}

const strip = ({
  closed: _closed,
  created_at_raw: _raw,
  ...c
}: ReportCase & { closed: number; created_at_raw: string }) => c as ReportCase;

/** The queue: open cases first, then decided ones, newest first, a keyset page at a time (owner, admin, moderator). */
export async function findReportCases({ ctx, viewer, idOrSlug, cursor }: OnCommunity & { cursor?: string }) {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "moderate_posts");
  const after = decodeCursor(cursor);
  const limit = REPORT_LIMITS.queuePage;
  const where = after
    ? sql`rc.community_id = ${community.id} AND ((rc.status <> 'open')::int > ${after.closed}
           OR ((rc.status <> 'open')::int = ${after.closed}
               AND (rc.created_at, rc.id) < (${after.t}::timestamptz, ${after.id}::uuid)))`
    : sql`rc.community_id = ${community.id}`;
  const rows = await selectCases(ctx.db, viewer.id, where, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const next =
    rows.length > limit && last
      ? Buffer.from(JSON.stringify({ closed: last.closed, t: last.created_at_raw, id: last.id })).toString("base64url")
      : null;
  return { items: page.map(strip), next_cursor: next };
}

/** One case of the community as the queue shows it. */
export async function findReportCase(db: Queryable, viewerId: string, communityId: string, caseId: string) {
  const [row] = await selectCases(db, viewerId, sql`rc.community_id = ${communityId} AND rc.id = ${caseId}`, 1);
  return row ? strip(row) : null;
}

/** Open cases, for the Admin tab's badge (owner, admin, moderator). */
export async function countOpenReports({ ctx, viewer, idOrSlug }: OnCommunity) {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "moderate_posts");
  const res = await ctx.db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM report_cases WHERE community_id = ${community.id} AND status = 'open'`);
  return { open: res.rows[0].n };
}

const toSettings = (c: { reportHideThreshold: number; minMessageLevel: number }) => ({
  hide_threshold: c.reportHideThreshold,
  min_message_level: c.minMessageLevel,
});

/** The hide threshold and the minimum level to start a chat (owner, admin). */
export async function findReportSettings({ ctx, viewer, idOrSlug }: OnCommunity) {
  return toSettings(await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "manage_settings"));
}

export async function updateReportSettings({
  ctx,
  viewer,
  idOrSlug,
  input,
}: OnCommunity & { input: { hide_threshold?: number; min_message_level?: number } }) {
  const community = await requireCommunityPermission(ctx.db, idOrSlug, viewer.id, "manage_settings");
  const set: Partial<typeof communities.$inferInsert> = {};
  if (input.hide_threshold !== undefined) set.reportHideThreshold = input.hide_threshold;
  if (input.min_message_level !== undefined) set.minMessageLevel = input.min_message_level;
  if (Object.keys(set).length === 0) return toSettings(community);
  const [row] = await ctx.db.update(communities).set(set).where(eq(communities.id, community.id)).returning();
  return toSettings(row);
}
