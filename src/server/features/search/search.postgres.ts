import { sql, type SQL } from "drizzle-orm";
import { isRole } from "#shared/roles";
import {
  SEARCH_KINDS,
  SEARCH_LIMITS,
  searchCommentHref,
  searchCourseHref,
  searchMemberHref,
  searchPostHref,
  type SearchKind,
} from "#shared/search";
import type { SearchResponse, SearchResult } from "#shared/search.schemas";
import type { Db } from "#server/db/client";
import { courseGateSql, lessonUnlocked, managesCourses } from "#server/features/courses/index";
import { postReadable } from "#server/lib/post-access";
import { decodeCursor, encodeCursor, pageInCode, type Cursor } from "./search.cursor";
import type { SearchEngine, SearchRequest } from "./search.engine";
import { parseQuery, tsquerySql, type Clause } from "./search.query";
import { highlightAll, snippet } from "./search.snippet";

/*
 * The PostgreSQL engine: the documents of migration 0025 (one GIN index), each kind joined to its
 * source rows so that who may read a result is decided by the same rules as everywhere else
 * (postReadable for posts and comments' posts, the course access rules for lessons, membership for
 * members). Each kind looks at its newest SEARCH_LIMITS.countCap + 1 readable matches (the count,
 * capped), ranks them (ts_rank; newer first on ties) or keeps them newest first, and pages them by
 * keyset on (rank, time, id).
 */

type Group = SearchResponse["groups"][number];
type Req = SearchRequest & { clauses: Clause[]; tsq: SQL; after: Cursor | null };

type Row = { id: string; rank: number; t: string; total: number };
type Community = { c_id: string; c_slug: string; c_name: string };
type Author = {
  author_id: string | null;
  username: string | null;
  full_name: string | null;
  avatar_url: string | null;
};

const WINDOW = SEARCH_LIMITS.countCap + 1;
const UTC = sql.raw(`'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`);

const community = (r: Community) => ({ id: r.c_id, slug: r.c_slug, name: r.c_name });
const author = (r: Author) =>
  r.author_id
    ? { id: r.author_id, username: r.username ?? "", full_name: r.full_name ?? "", avatar_url: r.avatar_url }
    : null;
const iso = (t: string) => new Date(t).toISOString();
const firstLine = (s: string) => s.trim().split("\n")[0] ?? "";

/** Dates are whole days in UTC: from the start of `from` to the end of `to`. */
function dateFilters(req: Req, column: SQL): SQL[] {
  const out: SQL[] = [];
  if (req.from) out.push(sql`${column} >= (${req.from}::date)::timestamp AT TIME ZONE 'UTC'`);
  if (req.to) out.push(sql`${column} < (${req.to}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
  return out;
}
const authorFilter = (req: Req, column: SQL) =>
  req.author ? [sql`${column} = (SELECT user_id FROM user_profiles WHERE lower(username) = lower(${req.author}))`] : [];
const scopeFilter = (req: Req, column: SQL) =>
  "communityId" in req.scope ? [sql`${column} = ${req.scope.communityId}`] : [];

/** Keyset after the cursor, in the page's order. */
function keyset(req: Req): SQL {
  const a = req.after;
  if (!a) return sql`true`;
  return req.order === "relevance"
    ? sql`(w.rank, w.t, w.id) < (${a.r}::real, ${a.t}, ${a.i})`
    : sql`(w.t, w.id) < (${a.t}, ${a.i})`;
}
const pageOrder = (req: Req) =>
  req.order === "relevance" ? sql.raw(`w.rank DESC, w.t DESC, w.id DESC`) : sql.raw(`w.t DESC, w.id DESC`);

/**
 * The window of matches (`from` and `where` over search_documents d and q.q), its count, and one
 * page of it joined to `detail` (which selects from the page `w`).
 */
async function windowed<T extends Row>(db: Db, req: Req, from: SQL, where: SQL[], detail: (w: SQL) => SQL) {
  const res = await db.execute<T>(sql`
    WITH m AS (SELECT d.doc_id COLLATE "C" AS id, d.created_at, ts_rank(d.tsv, ${req.tsq}) AS rank
            FROM search_documents d ${from}
           WHERE d.tsv @@ ${req.tsq} AND ${sql.join(where, sql` AND `)}
           ORDER BY d.created_at DESC, d.doc_id COLLATE "C" DESC
           LIMIT ${WINDOW}),
    c AS (SELECT m.id, m.rank, to_char(m.created_at AT TIME ZONE 'UTC', ${UTC}) COLLATE "C" AS t,
                 count(*) OVER ()::int AS total FROM m),
    w AS (SELECT * FROM c w WHERE ${keyset(req)} ORDER BY ${pageOrder(req)} LIMIT ${req.limit + 1})
    ${detail(sql`w`)}
    ORDER BY ${pageOrder(req)}`);
  return res.rows;
}

function group<T extends { id: string; rank: number; t: string }>(
  req: Req,
  kind: SearchKind,
  rows: T[],
  total: number,
  toResult: (r: T) => SearchResult,
): Group {
  const page = rows.slice(0, req.limit);
  const last = page.at(-1);
  return {
    kind,
    count: Math.min(total, SEARCH_LIMITS.countCap),
    results: page.map(toResult),
    next_cursor:
      rows.length > req.limit && last
        ? encodeCursor({ k: kind, o: req.order, r: Number(last.rank), t: last.t, i: last.id })
        : null,
  };
}

const viewerJoin = (req: Req, communityCol: SQL) =>
  sql`LEFT JOIN community_members vm ON vm.community_id = ${communityCol} AND vm.user_id = ${req.viewerId ?? ""}`;

async function searchPosts(db: Db, req: Req): Promise<Group> {
  type R = Row & Community & Author & { content: string; text: string; created_at: string };
  const rows = await windowed<R>(
    db,
    req,
    sql`JOIN posts p ON p.id = d.post_id JOIN communities c ON c.id = d.community_id ${viewerJoin(req, sql`d.community_id`)}`,
    [
      sql`d.kind = 'post'`,
      postReadable("p", sql`vm.role`, sql`c.visibility`, req.viewerId),
      ...scopeFilter(req, sql`d.community_id`),
      ...(req.category ? [sql`p.category_id = ${req.category}`] : []),
      ...authorFilter(req, sql`p.author_id`),
      ...dateFilters(req, sql`d.created_at`),
    ],
    (w) => sql`
      SELECT w.*, p.content, hearth_search_post_text(p.content, p.poll_data, p.link_preview) AS text, p.created_at,
             c.id AS c_id, c.slug AS c_slug, c.name AS c_name, p.author_id, up.username, up.full_name, up.avatar_url
        FROM ${w} JOIN posts p ON p.id = w.id::uuid JOIN communities c ON c.id = p.community_id
        LEFT JOIN user_profiles up ON up.user_id = p.author_id`,
  );
  return group(req, "post", rows, rows[0]?.total ?? 0, (r) => ({
    kind: "post",
    id: r.id,
    community: community(r),
    title: highlightAll(firstLine(r.content) || firstLine(r.text), req.clauses),
    snippet: snippet(r.text, req.clauses),
    href: searchPostHref(r.id),
    author: author(r),
    created_at: iso(r.created_at),
    locked: false,
  }));
}

async function searchComments(db: Db, req: Req): Promise<Group> {
  type R = Row & Community & Author & { content: string; post_id: string; post_content: string; created_at: string };
  const own = req.viewerId ? sql`cm.author_id = ${req.viewerId}` : sql`false`;
  const rows = await windowed<R>(
    db,
    req,
    sql`JOIN comments cm ON cm.id = d.item_id JOIN posts p ON p.id = d.post_id JOIN communities c ON c.id = p.community_id
        ${viewerJoin(req, sql`p.community_id`)}`,
    [
      sql`d.kind = 'comment'`,
      sql`cm.deleted_at IS NULL AND (cm.hidden_at IS NULL OR ${own})`,
      postReadable("p", sql`vm.role`, sql`c.visibility`, req.viewerId),
      ...scopeFilter(req, sql`d.community_id`),
      ...(req.category ? [sql`p.category_id = ${req.category}`] : []),
      ...authorFilter(req, sql`cm.author_id`),
      ...dateFilters(req, sql`d.created_at`),
    ],
    (w) => sql`
      SELECT w.*, cm.content, cm.post_id, p.content AS post_content, cm.created_at,
             c.id AS c_id, c.slug AS c_slug, c.name AS c_name, cm.author_id, up.username, up.full_name, up.avatar_url
        FROM ${w} JOIN comments cm ON cm.id = w.id::uuid JOIN posts p ON p.id = cm.post_id
        JOIN communities c ON c.id = p.community_id LEFT JOIN user_profiles up ON up.user_id = cm.author_id`,
  );
  return group(req, "comment", rows, rows[0]?.total ?? 0, (r) => ({
    kind: "comment",
    id: r.id,
    community: community(r),
    title: highlightAll(firstLine(r.post_content), req.clauses),
    snippet: snippet(r.content, req.clauses),
    href: searchCommentHref(r.post_id, r.id),
    author: author(r),
    created_at: iso(r.created_at),
    locked: false,
  }));
}

async function searchMembers(db: Db, req: Req): Promise<Group> {
  // Members lists are for members: only people who share a community with the viewer (this one, in a community's search).
  if (!req.viewerId || req.category || req.author || req.from || req.to) return empty("member");
  const viewer = req.viewerId;
  const shared = sql`SELECT tm.community_id, tm.joined_at FROM community_members tm
    JOIN community_members vm ON vm.community_id = tm.community_id AND vm.user_id = ${viewer}
   WHERE tm.user_id = d.doc_id ${"communityId" in req.scope ? sql`AND tm.community_id = ${req.scope.communityId}` : sql``}`;
  type R = Row &
    Community & { username: string; full_name: string; avatar_url: string | null; headline: string; joined_at: string };
  const rows = await windowed<R>(
    db,
    req,
    sql``,
    [sql`d.kind = 'member'`, sql`EXISTS (${shared})`],
    (w) => sql`
    SELECT w.*, up.username, up.full_name, up.avatar_url, up.headline, s.joined_at, c.id AS c_id, c.slug AS c_slug, c.name AS c_name
      FROM ${w} JOIN user_profiles up ON up.user_id = w.id
      CROSS JOIN LATERAL (${sql`SELECT tm.community_id, tm.joined_at FROM community_members tm
        JOIN community_members vm ON vm.community_id = tm.community_id AND vm.user_id = ${viewer}
       WHERE tm.user_id = w.id ${"communityId" in req.scope ? sql`AND tm.community_id = ${req.scope.communityId}` : sql``}
       ORDER BY tm.joined_at LIMIT 1`}) s
      JOIN communities c ON c.id = s.community_id`,
  );
  return group(req, "member", rows, rows[0]?.total ?? 0, (r) => ({
    kind: "member",
    id: r.id,
    community: community(r),
    title: highlightAll(r.full_name || r.username, req.clauses),
    snippet: highlightAll(
      [`@${r.username}`, r.headline].filter(Boolean).join(" · "),
      req.clauses,
      SEARCH_LIMITS.snippet,
    ),
    href: searchMemberHref(r.username),
    author: null,
    created_at: iso(r.joined_at),
    locked: false,
  }));
}

type CourseRow = Community & {
  id: string;
  rank: number;
  t: string;
  title_hit: boolean;
  course_id: string;
  status: "draft" | "published";
  role: string | null;
  title: string;
  description: string;
  is_preview: boolean;
  created_at: string;
  access: "members" | "tiers" | "sold" | "level";
  purchased: boolean;
  in_tier: boolean;
  unlock_level: number | null;
  viewer_level: number;
};

/** Courses and lessons: few per community, so the access rules of the courses feature run here in code. */
async function searchCourses(db: Db, req: Req, kind: "course" | "lesson"): Promise<Group> {
  if (req.category || req.author) return empty(kind);
  const lesson = kind === "lesson";
  const res = await db.execute<CourseRow>(sql`
    SELECT d.doc_id AS id, ts_rank(d.tsv, ${req.tsq}) AS rank, to_char(d.created_at AT TIME ZONE 'UTC', ${UTC}) AS t,
           coalesce(d.title_tsv @@ ${req.tsq}, true) AS title_hit, co.id AS course_id, co.status, vm.role,
           ${lesson ? sql`l.title, l.description, l.is_preview` : sql`co.title, co.description, false AS is_preview`},
           d.created_at, c.id AS c_id, c.slug AS c_slug, c.name AS c_name, co.access, ${courseGateSql(sql`${req.viewerId ?? ""}`)}
      FROM search_documents d
      JOIN courses co ON co.id = d.course_id
      JOIN communities c ON c.id = co.community_id
      ${lesson ? sql`JOIN course_lessons l ON l.id = d.item_id` : sql``}
      ${viewerJoin(req, sql`co.community_id`)}
     WHERE d.kind = ${sql.raw(`'${kind}'`)} AND d.tsv @@ ${req.tsq} AND (c.visibility <> 'private' OR vm.role IS NOT NULL)
       ${sql.join([...scopeFilter(req, sql`co.community_id`), ...dateFilters(req, sql`d.created_at`)].map((f) => sql` AND ${f}`))}
     ORDER BY d.created_at DESC, d.doc_id COLLATE "C" DESC
     LIMIT ${WINDOW}`);
  const shown = res.rows.flatMap((r) => {
    const role = isRole(r.role) ? r.role : null;
    if (r.status !== "published" && !managesCourses(role)) return [];
    const unlocked = !lesson || lessonUnlocked(r, r, role);
    // A locked lesson is found by its title alone: its description is what it hides.
    if (!unlocked && !r.title_hit) return [];
    return [{ ...r, rank: Number(r.rank), locked: !unlocked }];
  });
  const rows = pageInCode(shown, req.order, req.after, req.limit);
  return group(req, kind, rows, shown.length, (r) => ({
    kind,
    id: r.id,
    community: community(r),
    title: highlightAll(r.title, req.clauses),
    snippet: r.locked ? { text: "", highlights: [] } : snippet(r.description, req.clauses),
    href: searchCourseHref(r.c_slug, r.course_id, lesson ? r.id : undefined),
    author: null,
    created_at: iso(r.created_at),
    locked: r.locked,
  }));
}

const empty = (kind: SearchKind): Group => ({ kind, count: 0, results: [], next_cursor: null });

const SEARCHERS: Record<SearchKind, (db: Db, req: Req) => Promise<Group>> = {
  post: searchPosts,
  comment: searchComments,
  lesson: (db, req) => searchCourses(db, req, "lesson"),
  course: (db, req) => searchCourses(db, req, "course"),
  member: searchMembers,
};

export function createPostgresSearch(db: Db): SearchEngine {
  return {
    async search(request) {
      const clauses = parseQuery(request.q);
      const tsq = tsquerySql(clauses);
      const kinds = request.kind ? [request.kind] : [...SEARCH_KINDS];
      const after = request.kind ? decodeCursor(request.cursor, request.kind, request.order) : null;
      // The tsquery is built first and then sent as a constant, so the planner sees how common its
      // words are: walking the newest documents for a common word, the GIN index for a rare one.
      const text = tsq ? (await db.execute<{ q: string | null }>(sql`SELECT (${tsq})::text AS q`)).rows[0]?.q : null;
      const groups = text
        ? await Promise.all(
            kinds.map((k) => SEARCHERS[k](db, { ...request, clauses, tsq: sql`${text}::tsquery`, after })),
          )
        : kinds.map(empty);
      return { q: request.q.slice(0, SEARCH_LIMITS.queryMax), groups };
    },
  };
}
