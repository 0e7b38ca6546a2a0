import { sql } from "drizzle-orm";
import { LIMITS } from "#shared/limits";
import { visibleTo, type CommunityRole } from "#shared/roles";
import type { AppContext, Viewer } from "#server/context";
import { checkCommunityAccess, findCommunityCached, isUuid, memberRole } from "#server/lib/community-access";
import { pendingKey } from "#server/lib/feed-viewer-cache";
import { mayReadPost, postNotFound } from "#server/lib/post-access";
import {
  dropFeedChange,
  postCommunityKey,
  postPageKey,
  sharedPostKey,
  type FeedChange,
} from "#server/lib/public-cache";
import {
  decodeCursor,
  readPost,
  keysetPage,
  postColumnsText,
  sharedPostColumns,
  toPostDto,
  type PostRow,
} from "./posts.queries";

// The hot reads, answered as pre-serialized JSON and cached: the feed and a post's anonymous page.

/**
 * The viewer's role in $1 for user $2, with their own posts that others do not see ($3: a category or null) for the
 * first page: waiting for approval, or hidden pending review after reports (issue 22).
 */
const FEED_ROLE_PENDING_SQL = `
  SELECT m.role,
         (SELECT json_agg(x) FROM (
            SELECT ${postColumnsText("$2")} FROM posts p
             WHERE p.community_id = $1 AND p.author_id = $2 AND (NOT p.is_approved OR p.hidden_at IS NOT NULL)
               AND p.deleted_at IS NULL
               AND ($3::uuid IS NULL OR p.category_id = $3)
             ORDER BY p.created_at DESC LIMIT 20) x) AS pending
    FROM (SELECT 1) AS one
    LEFT JOIN community_members m ON m.community_id = $1 AND m.user_id = $2`;

/**
 * Viewer $1's like, save and vote, and the current counters, of the posts $2. LATERAL with LIMIT
 * (which PostgreSQL does not flatten into a join) keeps each lookup a primary-key probe per post:
 * as EXISTS the planner may hash all of the viewer's likes, thousands of rows for an active member.
 */
const FEED_VIEWER_STATE_SQL = `
  SELECT p.id, p.likes_count, p.comments_count, p.share_count, p.poll_data,
         l.hit IS NOT NULL AS liked, s.hit IS NOT NULL AS saved, v.option_index AS vote_index
    FROM unnest($2::uuid[]) AS i(id) JOIN posts p ON p.id = i.id
    LEFT JOIN LATERAL (SELECT 1 AS hit FROM post_likes WHERE post_id = p.id AND user_id = $1 LIMIT 1) l ON true
    LEFT JOIN LATERAL (SELECT 1 AS hit FROM saved_posts WHERE post_id = p.id AND user_id = $1 LIMIT 1) s ON true
    LEFT JOIN LATERAL (SELECT option_index FROM poll_votes WHERE post_id = p.id AND user_id = $1 LIMIT 1) v ON true`;

/** A shared page: `at` is when its reading began; `items` and `json`, its serialized forms, are made on first use. */
type SharedPage = { rows: PostRow[]; next: string | null; at: number; items?: string[]; json?: string };
type ViewerState = Pick<
  PostRow,
  "id" | "liked" | "saved" | "vote_index" | "likes_count" | "comments_count" | "share_count" | "poll_data"
>;
/** A reader's like, save and vote of a page's posts: `ids` the posts read, `marked` those with any. */
type KeptStates = { ids: Set<string>; marked: Map<string, Pick<PostRow, "liked" | "saved" | "vote_index">> };

/** The current counters of posts $1: those touched here since a page showing them was made. */
const FEED_COUNTERS_SQL = `
  SELECT p.id, p.likes_count, p.comments_count, p.share_count, p.poll_data FROM posts p WHERE p.id = ANY($1::uuid[])`;
type Counters = Pick<PostRow, "id" | "likes_count" | "comments_count" | "share_count" | "poll_data">;

/** `found` (what was kept) with the reader's states read for the posts `ids`: only the posts with something of theirs. */
function statesOf(found: KeptStates | undefined, ids: string[], read: ViewerState[]): KeptStates {
  const marked: KeptStates["marked"] = new Map(found?.marked);
  for (const r of read) {
    if (r.liked || r.saved || r.vote_index !== null)
      marked.set(r.id, { liked: r.liked, saved: r.saved, vote_index: r.vote_index });
  }
  return { ids: new Set([...(found?.ids ?? []), ...ids]), marked };
}

/**
 * The reader's like, save and vote of the posts `ids`, kept under `key`, and the current counters
 * of the posts touched here since `since` (when the shared part was made):
 * - the posts the kept states do not cover (a new post on the page, or nothing kept yet) are read,
 *   with the touched posts and their counters, in one statement, and added to what is kept;
 * - else the touched posts' counters come from countersOf, one read shared by every reader.
 * `fresh` has the touched posts' counters (with the states, for those just read).
 */
async function readerStates(
  ctx: AppContext,
  viewerId: string,
  key: string,
  ids: string[],
  since: number,
): Promise<{ kept: KeptStates; fresh: Map<string, Partial<ViewerState>> }> {
  const cache = ctx.feedViewerCache;
  let kept = cache.states.get<KeptStates>(key);
  const touched = ids.filter((id) => cache.touchedSince(id, since));
  const read = new Map<string, ViewerState>();
  const missing = kept ? ids.filter((id) => !kept!.ids.has(id)) : ids;
  if (missing.length) {
    const found = kept;
    // The touched posts' counters come with the same statement (one statement, not two).
    const wanted = [...new Set([...missing, ...touched])];
    // Made again under its key, so that the reader's own change meanwhile (forgetViewer) lets go of it.
    if (found) cache.states.delete(key);
    kept = await cache.states.getOrCompute<KeptStates>(key, async () => {
      const res = await ctx.pool.query<ViewerState>({
        name: "feed_viewer_state",
        text: FEED_VIEWER_STATE_SQL,
        values: [viewerId, wanted],
      });
      for (const r of res.rows) read.set(r.id, r);
      return statesOf(found, wanted, res.rows);
    });
  }
  const fresh = new Map<string, Partial<ViewerState>>();
  // Those not read above (nothing missing, or a read shared with another request) are read here.
  const stale = touched.filter((id) => !read.has(id));
  const counters = stale.length
    ? await cache.countersOf(stale, async (need) => {
        const res = await ctx.pool.query<Counters>({ name: "feed_counters", text: FEED_COUNTERS_SQL, values: [need] });
        return res.rows;
      })
    : undefined;
  for (const id of touched) {
    const current = read.get(id) ?? counters?.get(id);
    if (current) fresh.set(id, current);
  }
  return { kept: kept!, fresh };
}

/**
 * How a shared item ends: toPostDto puts the reader's fields last. A like or save (or a vote on a
 * poll that shows its results anyway) changes only this tail, so the reader's item is the shared one
 * with its tail replaced rather than serialized again.
 */
const UNMARKED_TAIL = ',"liked":false,"saved":false,"user_vote_index":null}';

/** The shared item `json` of post `r` with the reader's like, save and vote. */
function withMark(json: string, r: PostRow, mark: Pick<PostRow, "liked" | "saved" | "vote_index">): string {
  // A vote changes what a poll shows (its results): serialized again then.
  const pollChanges = mark.vote_index !== null && r.poll_data !== null;
  if (pollChanges || !json.endsWith(UNMARKED_TAIL)) return JSON.stringify(toPostDto({ ...r, ...mark }));
  return `${json.slice(0, -UNMARKED_TAIL.length)},"liked":${mark.liked},"saved":${mark.saved},"user_vote_index":${JSON.stringify(mark.vote_index)}}`;
}

const NOTHING_MARKED = { liked: false, saved: false, vote_index: null };

/** Each post of a shared page serialized for a reader who has not liked, saved or voted on it. */
const itemsOf = (page: SharedPage) => (page.items ??= page.rows.map((r) => JSON.stringify(toPostDto(r))));
const pageJson = (items: string[], next: string | null) =>
  `{"items":[${items.join(",")}],"next_cursor":${JSON.stringify(next)}}`;

/**
 * The feed: pinned posts first (first page only, at most five), then newest first, 50 a page by
 * keyset; approved posts the viewer's role may see, not hidden pending review, and on the first
 * page the viewer's own pending and hidden ones. The shared part of a page (by community, category,
 * cursor and visibility) comes from the feed cache, kept serialized. A signed-in reader's part comes
 * from the feed viewer cache (lib/feed-viewer-cache.ts, decision 0025): their role from the member
 * cache, their pending posts, and their like, save and vote of the page's posts; read when missing
 * (at most two statements: role with pending posts, then the states of the posts not kept yet with
 * fresh counters, or else the touched posts' counters alone) and then kept until the database
 * announces a change. Counters are the shared page's, except for the posts touched since the page
 * was made (liked or voted on through any process, shared or commented on through this one): those
 * come fresh, read once for every reader (readerStates); comments and shares made through another
 * process show within two seconds, as for anonymous readers. Answers the serialized page (built
 * field by field by toPostDto, so nothing beyond the schema can slip in): only the posts with fresh
 * counters are serialized again, and a liked or saved post's item is the shared one with the
 * reader's tail spliced in (withMark).
 */
export async function findFeed({
  ctx,
  viewer,
  idOrSlug,
  categoryId,
  cursor,
}: {
  ctx: AppContext;
  viewer: Viewer | null;
  idOrSlug: string;
  categoryId?: string;
  cursor?: string;
}) {
  const community = await findCommunityCached(ctx, idOrSlug);
  const after = decodeCursor(cursor);
  const limit = LIMITS.feedPageSize;
  let role: CommunityRole | null = null;
  let pending: PostRow[] = [];
  if (viewer && after) {
    // A later page: the role from the member cache (community-access.ts), no statement once kept.
    role = await memberRole(ctx, community.id, viewer.id);
  } else if (viewer) {
    // The first page adds the reader's pending posts. Each part is kept (the role in the member cache,
    // the pending posts here); whatever is missing is read by one prepared statement that reads both.
    let read: Promise<{ role: string | null; pending: PostRow[] | null } | undefined> | undefined;
    const both = () =>
      (read ??= ctx.pool
        .query<{ role: string | null; pending: PostRow[] | null }>({
          name: "feed_role_pending",
          text: FEED_ROLE_PENDING_SQL,
          values: [community.id, viewer.id, categoryId ?? null],
        })
        .then((res) => res.rows[0]));
    [role, pending] = await Promise.all([
      memberRole(ctx, community.id, viewer.id, async () => (await both())?.role),
      ctx.feedViewerCache.pending.getOrCompute(
        pendingKey(community.id, viewer.id, categoryId),
        async () => (await both())?.pending ?? [],
      ),
    ]);
  }
  checkCommunityAccess(community, role);
  const visibility = visibleTo(role);
  const key = `${community.id}:${categoryId ?? ""}:${visibility.join(",")}:${cursor ?? ""}`;
  // The shared part of the page, made once for every request that asks while it is made.
  const sharedPage = () =>
    ctx.feedCache.getOrCompute<SharedPage>(key, async () => {
      const at = Date.now();
      const conditions = [
        sql`p.community_id = ${community.id}`,
        sql`p.deleted_at IS NULL`,
        sql`p.is_approved`,
        sql`p.hidden_at IS NULL`,
        sql`p.visibility = ANY(${sql.param(visibility)}::text[])`,
      ];
      if (categoryId) conditions.push(sql`p.category_id = ${categoryId}`);
      if (after) {
        conditions.push(sql`NOT p.is_pinned AND (p.created_at, p.id) < (${after.t}::timestamptz, ${after.id}::uuid)`);
      }
      const res = await ctx.db.execute<PostRow>(sql`
        SELECT ${sharedPostColumns}
          FROM posts p
         WHERE ${sql.join(conditions, sql` AND `)}
         ORDER BY p.is_pinned DESC, p.created_at DESC, p.id DESC
         LIMIT ${limit + 1}`);
      return { ...keysetPage(res.rows, limit, (r) => ({ t: r.created_at_raw, id: r.id })), at };
    });
  const page = await sharedPage();
  // Anonymous visitors all get the same bytes, as does a reader with nothing of theirs on the page.
  if (!viewer) return (page.json ??= pageJson(itemsOf(page), page.next));
  const rows = pending.length ? [...page.rows, ...pending] : page.rows;
  if (!rows.length) return pageJson([], page.next);

  // The reader's like, save and vote of these posts: kept, or read with fresh counters.
  const { kept, fresh } = await readerStates(
    ctx,
    viewer.id,
    `${viewer.id}:${key}`,
    rows.map((r) => r.id),
    page.at,
  );
  // A post of the page with the reader's part (else nothing liked, saved or voted) and its current counters.
  const own = (r: PostRow): PostRow => ({ ...r, ...NOTHING_MARKED, ...kept.marked.get(r.id), ...fresh.get(r.id) });
  const base = itemsOf(page);
  if (!fresh.size && !pending.length && !page.rows.some((r) => kept.marked.has(r.id))) {
    return (page.json ??= pageJson(base, page.next));
  }
  // Serialized again: only the posts with newer counters than the shared part's.
  const items = page.rows.map((r, i) => {
    if (fresh.has(r.id)) return JSON.stringify(toPostDto(own(r)));
    const mark = kept.marked.get(r.id);
    return mark ? withMark(base[i], r, mark) : base[i];
  });
  if (pending.length) {
    // The viewer's own posts waiting for approval, after the pinned ones.
    const pinned = page.rows.filter((r) => r.is_pinned).length;
    items.splice(pinned, 0, ...pending.map((r) => JSON.stringify(toPostDto(own(r)))));
  }
  return pageJson(items, page.next);
}

/** The community a post is in ("" for no such post), kept in the public cache. */
const communityOfPost = (ctx: AppContext, postId: string) =>
  ctx.publicCache.getOrCompute(postCommunityKey(postId), async () => {
    const res = await ctx.pool.query<{ community_id: string }>({
      name: "post_community",
      text: "SELECT community_id FROM posts WHERE id = $1",
      values: [postId],
    });
    return res.rows[0]?.community_id ?? "";
  });

/** A community's card on a post's page. */
const cardOf = (c: { id: string; slug: string; name: string; iconUrl: string | null }) => ({
  id: c.id,
  slug: c.slug,
  name: c.name,
  icon_url: c.iconUrl,
});

/**
 * One post as an anonymous visitor sees it, serialized: findPost's answer for no one. The post's
 * part is the same bytes for everyone, so it is kept in the feed cache (postPageKey): any change to
 * the post drops it in every process, and this process's likes, votes, shares and comments drop it
 * at once (forgetPostPage); other processes' show within the time to live (2 s), as on anonymous
 * feed pages. The community comes from the public cache, dropped by any change to a community, and
 * is checked on every request: once it is no longer public the kept post is not shown. Only a
 * public, approved post of a public community is ever kept (findPost refuses the rest). Under a
 * spike, every missing or expired part is read once for all the visitors asking meanwhile
 * (getOrCompute): 1,500 visitors on one post must not queue 1,500 reads.
 */
export async function findPublicPost({ ctx, postId }: { ctx: AppContext; postId: string }): Promise<string> {
  if (!isUuid(postId)) throw postNotFound();
  const communityId = await communityOfPost(ctx, postId);
  if (!communityId) throw postNotFound();
  const [community, post] = await Promise.all([
    findCommunityCached(ctx, communityId),
    ctx.feedCache.getOrCompute(postPageKey(communityId, postId), async () =>
      JSON.stringify((await readPost(ctx.db, postId, null)).post),
    ),
  ]);
  if (community.visibility !== "public") throw postNotFound();
  return `{"post":${post},"community":${JSON.stringify(cardOf(community))},"viewer_role":null}`;
}

/** A post's columns shared by every viewer, and whether it is deleted, kept under its community's scope. */
type SharedPost = { row: PostRow & { is_deleted: boolean }; at: number };

/**
 * One post as a signed-in viewer sees it, serialized, with the community's card and the viewer's
 * role: the same answer as findPost, made from kept parts (issue 23, decision 0025). The post's
 * shared columns are kept in the feed cache under its community's scope (dropped in every process
 * when the community's posts change, at most 2 s old otherwise, read afresh when this process
 * changed its counters since), the community from the public cache, the role from the member cache,
 * the viewer's like, save and vote from the feed viewer cache. Access is decided on them with
 * mayReadPost, the rule requirePost applies: a post the viewer may not see answers as one that
 * does not exist.
 */
export async function findPostForViewer({
  ctx,
  viewer,
  postId,
}: {
  ctx: AppContext;
  viewer: Viewer;
  postId: string;
}): Promise<string> {
  if (!isUuid(postId)) throw postNotFound();
  const communityId = await communityOfPost(ctx, postId);
  if (!communityId) throw postNotFound();
  const [community, role, shared] = await Promise.all([
    findCommunityCached(ctx, communityId),
    memberRole(ctx, communityId, viewer.id),
    ctx.feedCache.getOrCompute<SharedPost | null>(sharedPostKey(communityId, postId), async () => {
      const at = Date.now();
      const res = await ctx.db.execute<SharedPost["row"]>(sql`
        SELECT ${sharedPostColumns}, p.deleted_at IS NOT NULL AS is_deleted FROM posts p WHERE p.id = ${postId}`);
      return res.rows[0] ? { row: res.rows[0], at } : null;
    }),
  ]);
  const post = shared?.row;
  if (!post || post.is_deleted) throw postNotFound();
  if (!mayReadPost({ ...post, is_hidden: post.hidden }, community.visibility, role, viewer.id)) throw postNotFound();

  const { kept, fresh } = await readerStates(ctx, viewer.id, `${viewer.id}:post:${postId}`, [postId], shared.at);
  const row: PostRow = { ...post, ...NOTHING_MARKED, ...kept.marked.get(postId), ...fresh.get(postId) };
  return JSON.stringify({
    post: toPostDto(row),
    community: cardOf(community),
    viewer_role: role,
  });
}

/**
 * After a write that changed a post's counters (likes, votes, shares, comments): drops this process's
 * anonymous page of the post, and signed-in feed pages here read the post's counters afresh.
 */
export function forgetPostPage(ctx: AppContext, communityId: string, postId: string) {
  ctx.feedCache.delete(postPageKey(communityId, postId));
  ctx.feedViewerCache.touch(postId);
}

/**
 * After a post changed: this process drops at once what the database's announcement of it will drop
 * in every process (the community's feed pages, the post's own pages, its author's kept pending posts).
 */
export function forgetFeed(ctx: AppContext, change: FeedChange) {
  dropFeedChange(ctx.feedCache, change);
  ctx.feedViewerCache.forgetPending(change);
}
