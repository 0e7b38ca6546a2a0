import { createHash } from "node:crypto";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { CourseAccessMode } from "#shared/payments";
import { ROLE_RANK, isRole, visibleTo, type CommunityRole } from "#shared/roles";
import { MIME_BY_EXTENSION } from "#shared/uploads";
import type { AppContext } from "#server/context";
import { originalKeyOf, variantKeys } from "#server/lib/uploads";
import { courseGateSql, lessonUnlocked, managesCourses } from "#server/features/courses/index";
import { messageImageAccess } from "#server/features/messages/index";

/** How stored files are served: every accepted upload type, and sanitized SVG icons. */
const MEDIA_TYPES: Record<string, string> = { ...MIME_BY_EXTENSION, ".svg": "image/svg+xml" };

export const mediaType = (key: string) => MEDIA_TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";

/** Who may read a stored file: anyone (cacheable forever), only some signed-in people, or no one. */
export type MediaAccess = "public" | "restricted" | "denied";

const COMMUNITY_KEY = /^community-assets\/([0-9a-f-]{36})\/(courses\/)?/;

/**
 * Decides from the key's folder and, for community files, one query: the community's visibility,
 * the viewer's role, and the file's row with the post, lesson or course it belongs to. Files of a
 * private community reach members only; a post's files follow the post's visibility and approval;
 * course files (lesson videos and resources, thumbnails) follow what names them: the linked lesson
 * or course when it opens the file, else every lesson and course that names it (courseFileAccess,
 * a second query). Files without a ready row (unfinished uploads, replaced or deleted ones waiting
 * for removal) are served to no one.
 */
export async function mediaAccess(
  ctx: AppContext,
  key: string,
  viewerId: string | null,
  opts: { ignoreCommunityVisibility?: boolean } = {},
): Promise<MediaAccess> {
  if (key.startsWith("incoming/")) return "denied";
  if (key.startsWith("user-avatars/") || key.startsWith("user-uploads/")) {
    if ((await fileStatus(ctx, originalKeyOf(key))) !== "ready") return "denied";
    // A personal image sent in a message reaches that conversation's two people only.
    return key.startsWith("user-uploads/") ? messageImageAccess(ctx.db, originalKeyOf(key), viewerId) : "public";
  }
  const m = COMMUNITY_KEY.exec(key);
  if (!m) return "denied";
  const original = originalKeyOf(key);
  const res = await ctx.db.execute<{
    c_visibility: string;
    role: string | null;
    status: string | null;
    post_id: string | null;
    p_visibility: "public" | "members" | "admins" | null;
    p_approved: boolean | null;
    p_deleted: boolean | null;
    p_author: string | null;
    lesson_id: string | null;
    l_preview: boolean | null;
    l_access: CourseAccessMode | null;
    l_status: "draft" | "published" | null;
    purchased: boolean;
    in_tier: boolean;
    unlock_level: number | null;
    viewer_level: number;
    thumbnail_status: "draft" | "published" | null;
  }>(sql`
    SELECT c.visibility AS c_visibility, mem.role, f.status, f.post_id,
           p.visibility AS p_visibility, p.is_approved AND p.hidden_at IS NULL AS p_approved, p.deleted_at IS NOT NULL AS p_deleted,
           p.author_id AS p_author, f.lesson_id, l.is_preview AS l_preview,
           co.access AS l_access, co.status AS l_status, ${courseGateSql(sql`${viewerId ?? ""}`)},
           tc.status AS thumbnail_status
      FROM communities c
      LEFT JOIN community_members mem ON mem.community_id = c.id AND mem.user_id = ${viewerId ?? ""}
      LEFT JOIN media_files f ON f.key = ${original}
      LEFT JOIN posts p ON p.id = f.post_id
      LEFT JOIN course_lessons l ON l.id = f.lesson_id
      LEFT JOIN course_modules mo ON mo.id = l.module_id
      LEFT JOIN courses co ON co.id = mo.course_id
      LEFT JOIN courses tc ON tc.id = f.course_id
     WHERE c.id = ${m[1]}`);
  const r = res.rows[0];
  if (!r) return "denied";
  // Only recorded, finished files are served: a replaced icon's row is gone at once, its files soon.
  if (r.status !== "ready") return "denied";
  const role = isRole(r.role) ? r.role : null;
  if (r.c_visibility === "private" && !role && !opts.ignoreCommunityVisibility) return "denied";
  const restricted = r.c_visibility === "private";
  if (m[2]) {
    // The common cases in this one query: a published course's thumbnail, a lesson's own file for
    // someone the lesson is open to. Anything else asks everything that names the file.
    const course =
      r.thumbnail_status === "published"
        ? "public"
        : r.lesson_id &&
            lessonUnlocked(
              {
                access: r.l_access ?? "members",
                purchased: r.purchased,
                in_tier: r.in_tier,
                unlock_level: r.unlock_level,
                viewer_level: r.viewer_level,
                status: r.l_status ?? "draft",
              },
              { is_preview: r.l_preview ?? false },
              role,
            )
          ? "restricted"
          : await courseFileAccess(ctx, m[1], original, viewerId, role);
    if (course === "denied") return "denied";
    return course === "restricted" || restricted ? "restricted" : "public";
  }
  if (r.post_id) {
    if (r.p_deleted) return "denied";
    if (!visibleTo(role).includes(r.p_visibility!)) return "denied";
    const moderator = role !== null && ROLE_RANK[role] >= ROLE_RANK.moderator;
    if (!r.p_approved && r.p_author !== viewerId && !moderator) return "denied";
    if (r.p_visibility !== "public" || !r.p_approved) return "restricted";
  }
  return restricted ? "restricted" : "public";
}

/** Every URL under which a stored file can be named: the key, and for an image each variant. */
const urlsOf = (original: string) =>
  original.endsWith(".webp")
    ? Object.values(variantKeys(original.slice(0, -".webp".length))).map((k) => `/media/${k}`)
    : [`/media/${original}`];

/**
 * A file of a community's courses folder is decided by what names it, found from the key in the
 * lessons and courses themselves (so files stored before they were linked are covered too): a
 * lesson's video or resource opens to those the lesson is unlocked for (lessonUnlocked), never
 * cached by shared caches; a published course's thumbnail is as public as the community. A course
 * file nothing names (just uploaded, or left by a deleted lesson) is for course managers only.
 */
async function courseFileAccess(
  ctx: AppContext,
  communityId: string,
  original: string,
  viewerId: string | null,
  role: CommunityRole | null,
): Promise<MediaAccess> {
  const urls = urlsOf(original);
  const res = await ctx.db.execute<{
    what: "lesson" | "thumbnail";
    is_preview: boolean;
    access: CourseAccessMode;
    status: "draft" | "published";
    purchased: boolean;
    in_tier: boolean;
    unlock_level: number | null;
    viewer_level: number;
  }>(sql`
    SELECT 'lesson' AS what, l.is_preview, co.access, co.status, ${courseGateSql(sql`${viewerId ?? ""}`)}
      FROM courses co
      JOIN course_modules mo ON mo.course_id = co.id
      JOIN course_lessons l ON l.module_id = mo.id
     WHERE co.community_id = ${communityId}
       AND (l.id = (SELECT f.lesson_id FROM media_files f WHERE f.key = ${original})
            OR l.video_url = ANY(${sql.param(urls)}::text[])
            OR l.resources @> ANY(${sql.param(urls.map((url) => JSON.stringify([{ url }])))}::jsonb[]))
    UNION ALL
    SELECT 'thumbnail', false, co.access, co.status, false, false, NULL::int, 1
      FROM courses co
     WHERE co.community_id = ${communityId}
       AND (co.id = (SELECT f.course_id FROM media_files f WHERE f.key = ${original})
            OR co.thumbnail_url = ANY(${sql.param(urls)}::text[]))`);
  const refs = res.rows;
  // A thumbnail shows wherever the course is listed: to anyone for a published course.
  if (refs.some((x) => x.what === "thumbnail" && x.status === "published")) return "public";
  const open = refs.some((x) => x.what === "lesson" && lessonUnlocked(x, x, role));
  return open || managesCourses(role) ? "restricted" : "denied";
}

async function fileStatus(ctx: AppContext, key: string): Promise<string | null> {
  const res = await ctx.db.execute<{ status: string }>(sql`SELECT status FROM media_files WHERE key = ${key}`);
  return res.rows[0]?.status ?? null;
}

/** A strong validator for an immutable key. */
export const etagOf = (key: string) => `"${createHash("sha1").update(key).digest("base64url").slice(0, 22)}"`;

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; multi-ranges are served whole. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | "invalid" | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    if (m[2] === "") return "invalid";
    const suffix = Number(m[2]);
    if (suffix === 0) return "invalid";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) return "invalid";
  return { start, end };
}
