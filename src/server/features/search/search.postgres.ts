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
import { executePrepared, executeShape, type Db } from "#server/db/client";
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
type Req = SearchRequest & { clauses: Clause[]; tsq: SQL; tsqText: string; after: Cursor | null; limit: number };

type Row = { id: string; rank: number; t: string; total: number };
type Community = { c_id: string; c_slug: string; c_name: string };
type Author = {
  author_id: string | null;
  username: string | null;
  full_name: string | null;
  avatar_url: string | null;
};

const WINDOW = SEARCH_LIMITS.countCap + 1;
/** Newest documents of a kind read for a common word before its GIN index is asked instead. */
const WALK = 20 * WINDOW;
/**
 * The longer walk, for a word the first walk found too few of but at least WALK_HITS times (one
 * document in 400 or more): it fills the window within about this many documents, where the GIN
 * index would read every match's row (scattered through the table) for its time.
 */
const LONG_WALK = 20 * WALK;
const WALK_HITS = 5;
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
const pageOrder = (req: Req, alias = "w") =>
  sql.raw(
    req.order === "relevance"
      ? `${alias}.rank DESC, ${alias}.t DESC, ${alias}.id DESC`
      : `${alias}.t DESC, ${alias}.id DESC`,
  );

/**
 * The window of a kind's matches (`from` and `where` over search_documents d and the tsquery), its
 * count, and one page of it joined to `detail` (which selects from the page `w`).
 *
 * The newest WINDOW readable matches are found one of three ways, in one statement: by walking the
 * scope's newest WALK documents of the kind (the b-tree on time; a common word fills the window within
 * a few hundred); when that walk fell short but saw the word WALK_HITS times or more, by walking up to
 * LONG_WALK; else, or when that fell short too (and the scope has more documents than it read), by the
 * kind's GIN index (every match, then the newest; a rarer word has few). PostgreSQL runs a later part
 * only when its one-time condition holds, so each query pays only for the ways it tries, and none
 * depends on the planner guessing how common a word is (a guess that had a rare word walk a million
 * comments). A remembered way (wayOf) starts at the way that answered the same query lately.
 */
type WindowKind = "post" | "comment" | "member";

function windowed(req: Req, kind: WindowKind, from: SQL, where: SQL[], detail: (w: SQL) => SQL): SQL {
  const docs = sql.join(
    [
      // Literals, not parameters: a prepared statement's generic plan uses the partial GIN index of
      // a kind, and limits, only when the planner sees them.
      sql.raw(`s.kind = '${kind}'`),
      // A member's document has no community: the viewer's shared communities scope it (in `where`).
      ...(kind === "member" ? [] : scopeFilter(req, sql`s.community_id`)),
      ...dateFilters(req, sql`s.created_at`),
    ],
    sql` AND `,
  );
  const readable = sql.join(where, sql` AND `);
  const newestFirst = sql.raw(`ORDER BY d.created_at DESC, d.doc_id DESC LIMIT ${WINDOW}`);
  // A walk: the newest documents (with their vectors), the readable matches among them.
  const walk = (budget: number) => sql`
    SELECT d.doc_id AS id, d.created_at, ts_rank(d.tsv, ${req.tsq}) AS rank
      FROM (SELECT s.* FROM search_documents s WHERE ${docs}
             ORDER BY s.created_at DESC, s.doc_id DESC LIMIT ${sql.raw(String(budget))}) d ${from}
     WHERE d.tsv @@ ${req.tsq} AND ${readable}
     ${newestFirst}`;
  // Whether the scope has more documents than a walk of `budget` reads (an index-only count).
  const beyond = (budget: number) => sql`
    SELECT count(*) >= ${sql.raw(String(budget))} AS more
      FROM (SELECT 1 FROM search_documents s WHERE ${docs} LIMIT ${sql.raw(String(budget))}) x`;
  // The index: every match, narrow and newest first, read until the window is full of readable ones;
  // only those are ranked (their vectors read again by key), so a word with thousands of matches
  // sorts small rows and checks the readability of a few hundred.
  const indexed = sql`
    SELECT d.doc_id AS id, d.created_at,
           (SELECT ts_rank(r.tsv, ${req.tsq}) FROM search_documents r
             WHERE r.kind = ${sql.raw(`'${kind}'`)} AND r.doc_id = d.doc_id) AS rank
      FROM (SELECT s.doc_id, s.item_id, s.community_id, s.post_id, s.course_id, s.created_at
              FROM search_documents s WHERE ${docs} AND s.tsv @@ ${req.tsq}
             ORDER BY s.created_at DESC, s.doc_id DESC) d ${from}
     WHERE ${readable}
     ${newestFirst}`;
  // Which way answers, decided in order; PostgreSQL evaluates each part (a CTE) only when a
  // condition it reaches needs it, so a common word never starts the longer walk or the count. A
  // way remembered for the query (`way_<kind>`: 'index' or 'long', else 'probe') starts there.
  const short = sql.raw(`(SELECT count(*) FROM walked) < ${WINDOW} AND (SELECT more FROM scope)`);
  const fewHits = sql.raw(`(SELECT count(*) FROM walked) < ${WALK_HITS}`);
  const longShort = sql.raw(`(SELECT count(*) FROM walked_long) < ${WINDOW} AND (SELECT more FROM scope_long)`);
  const way = sql`${sql.placeholder(`way_${kind}`)}::text`;
  const probe = sql`${way} = 'probe'`;
  const long = sql`(${way} = 'long' OR (${probe} AND ${short} AND NOT ${fewHits}))`;
  const byIndex = sql`(${way} = 'index' OR (${way} = 'long' AND ${longShort}) OR (${probe} AND ${short} AND (${fewHits} OR (${longShort}))))`;
  return sql`
    WITH walked AS MATERIALIZED (${walk(WALK)}),
    scope AS MATERIALIZED (${beyond(WALK)}),
    walked_long AS MATERIALIZED (${walk(LONG_WALK)}),
    scope_long AS MATERIALIZED (${beyond(LONG_WALK)}),
    m AS (SELECT * FROM walked WHERE ${probe} AND NOT (${short})
          UNION ALL
          SELECT * FROM walked_long WHERE ${long} AND NOT (${longShort})
          UNION ALL
          SELECT * FROM (${indexed}) g WHERE ${byIndex}),
    c AS (SELECT m.id COLLATE "C" AS id, m.rank, to_char(m.created_at AT TIME ZONE 'UTC', ${UTC}) COLLATE "C" AS t,
                 count(*) OVER ()::int AS total FROM m),
    w AS (SELECT * FROM c w WHERE ${keyset(req)} ORDER BY ${pageOrder(req)} LIMIT ${req.limit} + 1)
    SELECT json_build_object(
      'way', (SELECT CASE WHEN ${byIndex} THEN 'index' WHEN ${long} THEN 'long' ELSE 'walk' END),
      'rows', coalesce((SELECT json_agg(x ORDER BY ${pageOrder(req, "x")}) FROM (${detail(sql`w`)}) x), '[]'::json))`;
}

/**
 * One part of the search statement: SQL answering one JSON value (built from the request's shape,
 * see shapeOf), and the groups that value makes (of the request itself).
 */
type Part = { sql: (q: Req) => SQL; groups: (answer: unknown) => Group[] };
/** A kind's window (windowed), its rows in the page's order. */
const windowPart = <T>(
  req: Req,
  kind: WindowKind,
  statement: (q: Req) => SQL,
  toGroup: (rows: T[]) => Group,
): Part => ({
  sql: statement,
  groups: (answer) => {
    const { way, rows } = answer as unknown as { way: Way; rows: T[] };
    learnWay(req, kind, way);
    return [toGroup(rows)];
  },
});

/** The way that answered a kind's window: the first walk, the longer walk, or the GIN index. */
type Way = "walk" | "long" | "index";
/**
 * Which way answered a query lately, per kind, scope, viewer and filters: when it was the longer walk
 * (a word the first walk found too few of) or the GIN index (a word too rare for the walks), the same
 * query starts there for a minute, skipping the walks and scope counts before it, then walks from the
 * start again to check. Every way gives the same window (the newest readable matches), so a hint
 * changes what a query costs, never what it finds.
 */
const ways = new Map<string, { way: Exclude<Way, "walk">; until: number }>();
const WAY_MS = 60_000;
const wayKey = (req: Req, kind: WindowKind) =>
  JSON.stringify([
    kind,
    "communityId" in req.scope ? req.scope.communityId : "*",
    req.viewerId,
    req.tsqText,
    req.category,
    req.author,
    req.from,
    req.to,
  ]);
function learnWay(req: Req, kind: WindowKind, way: Way) {
  const key = wayKey(req, kind);
  if (way === "walk") return void ways.delete(key);
  const known = ways.get(key);
  // A hint keeps the time it was first learned: the query walks from the start again after a minute.
  ways.set(key, { way, until: known?.until ?? Date.now() + WAY_MS });
  if (ways.size > 1_000) ways.delete(ways.keys().next().value as string);
}
function wayOf(req: Req, kind: WindowKind): Exclude<Way, "walk"> | "probe" {
  const key = wayKey(req, kind);
  const known = ways.get(key);
  if (!known) return "probe";
  if (known.until < Date.now()) {
    ways.delete(key);
    return "probe";
  }
  return known.way;
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

/**
 * What a result's readability needs of its community: in one community's search, the viewer's role
 * and the community's visibility as the route read them (values, the same for every match); across
 * communities, joined per match.
 */
function communityAccess(req: Req, communityId: SQL): { join: SQL; role: SQL; visibility: SQL } {
  if ("communityId" in req.scope)
    return { join: sql``, role: sql`${req.scope.role}::text`, visibility: sql`${req.scope.visibility}::text` };
  return {
    join: sql`JOIN communities c ON c.id = ${communityId} ${viewerJoin(req, communityId)}`,
    role: sql`vm.role`,
    visibility: sql`c.visibility`,
  };
}

function searchPosts(req: Req): Part {
  type R = Row & Community & Author & { content: string; text: string; created_at: string };
  const statement = (q: Req) => {
    const access = communityAccess(q, sql`d.community_id`);
    return windowed(
      q,
      "post",
      sql`JOIN posts p ON p.id = d.post_id ${access.join}`,
      [
        postReadable("p", access.role, access.visibility, q.viewerId),
        ...(q.category ? [sql`p.category_id = ${q.category}`] : []),
        ...authorFilter(q, sql`p.author_id`),
      ],
      (w) => sql`
      SELECT w.*, p.content, hearth_search_post_text(p.content, p.poll_data, p.link_preview) AS text, p.created_at,
             c.id AS c_id, c.slug AS c_slug, c.name AS c_name, p.author_id, up.username, up.full_name, up.avatar_url
        FROM ${w} JOIN posts p ON p.id = w.id::uuid JOIN communities c ON c.id = p.community_id
        LEFT JOIN user_profiles up ON up.user_id = p.author_id`,
    );
  };
  return windowPart<R>(req, "post", statement, (rows) =>
    group(req, "post", rows, rows[0]?.total ?? 0, (r) => ({
      kind: "post",
      id: r.id,
      community: community(r),
      title: highlightAll(firstLine(r.content) || firstLine(r.text), req.clauses),
      snippet: snippet(r.text, req.clauses),
      href: searchPostHref(r.id),
      author: author(r),
      created_at: iso(r.created_at),
      locked: false,
    })),
  );
}

function searchComments(req: Req): Part {
  type R = Row & Community & Author & { content: string; post_id: string; post_content: string; created_at: string };
  const statement = (q: Req) => {
    const own = q.viewerId ? sql`cm.author_id = ${q.viewerId}` : sql`false`;
    const access = communityAccess(q, sql`p.community_id`);
    return windowed(
      q,
      "comment",
      sql`JOIN comments cm ON cm.id = d.item_id JOIN posts p ON p.id = d.post_id ${access.join}`,
      [
        sql`cm.deleted_at IS NULL AND (cm.hidden_at IS NULL OR ${own})`,
        postReadable("p", access.role, access.visibility, q.viewerId),
        ...(q.category ? [sql`p.category_id = ${q.category}`] : []),
        ...authorFilter(q, sql`cm.author_id`),
      ],
      (w) => sql`
      SELECT w.*, cm.content, cm.post_id, p.content AS post_content, cm.created_at,
             c.id AS c_id, c.slug AS c_slug, c.name AS c_name, cm.author_id, up.username, up.full_name, up.avatar_url
        FROM ${w} JOIN comments cm ON cm.id = w.id::uuid JOIN posts p ON p.id = cm.post_id
        JOIN communities c ON c.id = p.community_id LEFT JOIN user_profiles up ON up.user_id = cm.author_id`,
    );
  };
  return windowPart<R>(req, "comment", statement, (rows) =>
    group(req, "comment", rows, rows[0]?.total ?? 0, (r) => ({
      kind: "comment",
      id: r.id,
      community: community(r),
      title: highlightAll(firstLine(r.post_content), req.clauses),
      snippet: snippet(r.content, req.clauses),
      href: searchCommentHref(r.post_id, r.id),
      author: author(r),
      created_at: iso(r.created_at),
      locked: false,
    })),
  );
}

function searchMembers(req: Req): Part | null {
  // Members lists are for members: only people who share a community with the viewer (this one, in a community's search).
  if (!req.viewerId || req.category || req.author || req.from || req.to) return null;
  type R = Row &
    Community & { username: string; full_name: string; avatar_url: string | null; headline: string; joined_at: string };
  const statement = (q: Req) => {
    const viewer = q.viewerId;
    const inScope = "communityId" in q.scope ? sql`AND tm.community_id = ${q.scope.communityId}` : sql``;
    const shared = sql`SELECT tm.community_id, tm.joined_at FROM community_members tm
      JOIN community_members vm ON vm.community_id = tm.community_id AND vm.user_id = ${viewer}
     WHERE tm.user_id = d.doc_id ${inScope}`;
    return windowed(
      q,
      "member",
      sql``,
      [sql`EXISTS (${shared})`],
      (w) => sql`
    SELECT w.*, up.username, up.full_name, up.avatar_url, up.headline, s.joined_at, c.id AS c_id, c.slug AS c_slug, c.name AS c_name
      FROM ${w} JOIN user_profiles up ON up.user_id = w.id
      CROSS JOIN LATERAL (${sql`SELECT tm.community_id, tm.joined_at FROM community_members tm
        JOIN community_members vm ON vm.community_id = tm.community_id AND vm.user_id = ${viewer}
       WHERE tm.user_id = w.id ${inScope}
       ORDER BY tm.joined_at LIMIT 1`}) s
      JOIN communities c ON c.id = s.community_id`,
    );
  };
  return windowPart<R>(req, "member", statement, (rows) =>
    group(req, "member", rows, rows[0]?.total ?? 0, (r) => ({
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
    })),
  );
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

type CourseKind = "course" | "lesson";

/** One kind's newest matches among courses or lessons, before the access rules (in code). */
function courseMatches(req: Req, kind: CourseKind): SQL {
  const lesson = kind === "lesson";
  return sql`(
    SELECT ${sql.raw(`'${kind}'`)} AS kind, d.doc_id AS id, ts_rank(d.tsv, ${req.tsq}) AS rank,
           to_char(d.created_at AT TIME ZONE 'UTC', ${UTC}) AS t,
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
     LIMIT ${sql.raw(String(WINDOW))})`;
}

/**
 * Courses and lessons, in one statement: few per community, so the access rules of the courses
 * feature run here in code.
 */
function searchCourses(req: Req, kinds: CourseKind[]): Part | null {
  if (req.category || req.author) return null;
  const statement = (q: Req) =>
    sql`SELECT coalesce(json_agg(x), '[]'::json) FROM (${sql.join(
      kinds.map((k) => courseMatches(q, k)),
      sql` UNION ALL `,
    )}) x`;
  const groups = (found: (CourseRow & { kind: CourseKind })[]) =>
    kinds.map((kind) => {
      const lesson = kind === "lesson";
      const shown = found.flatMap((r) => {
        if (r.kind !== kind) return [];
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
    });
  return { sql: statement, groups: (answer) => groups(answer as (CourseRow & { kind: CourseKind })[]) };
}

const empty = (kind: SearchKind): Group => ({ kind, count: 0, results: [], next_cursor: null });

const SEARCHERS: Record<Exclude<SearchKind, CourseKind>, (req: Req) => Part | null> = {
  post: searchPosts,
  comment: searchComments,
  member: searchMembers,
};
const isCourseKind = (k: SearchKind): k is CourseKind => k === "course" || k === "lesson";

/**
 * The request with a placeholder (sql.placeholder) in place of each value the statement binds, so
 * that its text is built once per shape (executeShape): whether each optional part is there (viewer,
 * filters, cursor, scope) and never what it holds. shapeKey names exactly those choices; valuesOf
 * gives the values.
 */
function shapeOf(req: Req): Req {
  const ph = <T>(name: string) => sql.placeholder(name) as unknown as T;
  return {
    ...req,
    viewerId: req.viewerId ? ph("viewer") : null,
    category: req.category ? ph("category") : undefined,
    author: req.author ? ph("author") : undefined,
    from: req.from ? ph("from") : undefined,
    to: req.to ? ph("to") : undefined,
    scope:
      "communityId" in req.scope
        ? { communityId: ph("community"), role: ph("role"), visibility: ph("visibility") }
        : req.scope,
    tsq: sql`${sql.placeholder("tsq")}::tsquery`,
    after: req.after ? { ...req.after, r: ph("after_r"), t: ph("after_t"), i: ph("after_i") } : null,
    limit: ph("limit"),
  };
}

const shapeKey = (req: Req, kinds: SearchKind[]) =>
  JSON.stringify([
    kinds,
    req.order,
    "communityId" in req.scope,
    Boolean(req.viewerId),
    Boolean(req.category),
    Boolean(req.author),
    Boolean(req.from),
    Boolean(req.to),
    Boolean(req.after),
  ]);

function valuesOf(req: Req): Record<string, unknown> {
  const scope = "communityId" in req.scope ? req.scope : null;
  return {
    viewer: req.viewerId,
    category: req.category,
    author: req.author,
    from: req.from,
    to: req.to,
    community: scope?.communityId,
    role: scope?.role,
    visibility: scope?.visibility,
    tsq: req.tsqText,
    after_r: req.after?.r,
    after_t: req.after?.t,
    after_i: req.after?.i,
    limit: req.limit,
    way_post: wayOf(req, "post"),
    way_comment: wayOf(req, "comment"),
    way_member: wayOf(req, "member"),
  };
}

/**
 * Each asked kind's group, in the order asked, from one statement: each kind's part (courses and
 * lessons share one) is a column of its rows as JSON, so a search is one round trip and one
 * prepared statement however many kinds it asks for.
 */
async function searchKinds(db: Db, req: Req, kinds: SearchKind[]): Promise<Group[]> {
  const courseKinds = kinds.filter(isCourseKind);
  const parts = [
    ...(courseKinds.length > 0 ? [searchCourses(req, courseKinds)] : []),
    ...kinds.flatMap((k) => (isCourseKind(k) ? [] : [SEARCHERS[k](req)])),
  ].filter((p): p is Part => p !== null);
  if (parts.length === 0) return kinds.map(empty);
  const build = () => {
    const q = shapeOf(req);
    const columns = parts.map((p, i) => sql`(${p.sql(q)}) AS ${sql.raw(`k${i}`)}`);
    return sql`SELECT ${sql.join(columns, sql`, `)}`;
  };
  const [row] = await executeShape<Record<string, unknown>>(db, shapeKey(req, kinds), build, valuesOf(req));
  const byKind = new Map(parts.flatMap((p, i) => p.groups(row?.[`k${i}`] ?? [])).map((g) => [g.kind, g]));
  return kinds.map((k) => byKind.get(k) ?? empty(k));
}

/** The tsquery of recent queries' clauses, as PostgreSQL built it (its dictionaries do not change while it runs). */
const tsqueries = new Map<string, string | null>();
const TSQUERIES_KEPT = 1_000;

async function tsqueryText(db: Db, clauses: Clause[], tsq: SQL): Promise<string | null> {
  const key = JSON.stringify(clauses);
  if (tsqueries.has(key)) {
    const text = tsqueries.get(key) ?? null;
    // Most recently used last, so the oldest is dropped first.
    tsqueries.delete(key);
    tsqueries.set(key, text);
    return text;
  }
  const [row] = await executePrepared<{ q: string | null }>(db, sql`SELECT (${tsq})::text AS q`);
  const text = row?.q ?? null;
  tsqueries.set(key, text);
  if (tsqueries.size > TSQUERIES_KEPT) tsqueries.delete(tsqueries.keys().next().value as string);
  return text;
}

export function createPostgresSearch(db: Db): SearchEngine {
  return {
    async search(request) {
      const clauses = parseQuery(request.q);
      const tsq = tsquerySql(clauses);
      const kinds = request.kind ? [request.kind] : [...SEARCH_KINDS];
      const after = request.kind ? decodeCursor(request.cursor, request.kind, request.order) : null;
      const limit = request.limit ?? (request.kind ? SEARCH_LIMITS.page : SEARCH_LIMITS.groupPage);
      const text = tsq ? await tsqueryText(db, clauses, tsq) : null;
      const groups = text
        ? await searchKinds(db, { ...request, clauses, tsq: sql`${text}::tsquery`, tsqText: text, after, limit }, kinds)
        : kinds.map(empty);
      return { q: request.q.slice(0, SEARCH_LIMITS.queryMax), groups };
    },
  };
}
