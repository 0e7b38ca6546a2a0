/**
 * The posts data set: one public community of 20,000 members with 200,000 posts over a year and
 * 1,000,000 likes, made with set-based SQL on a Hearth database that the server itself created and
 * migrated (demo seed off; a server started later on a copy finds users and skips its seed).
 *
 * Everything is deterministic (hashes of the row number, no random()), so every build of one version
 * holds the same rows and runs stay comparable.
 *
 * - Users n = 1…20,000: `user` and `user_profiles` rows (60% with an avatar URL), id
 *   md5('hearth-bench-posts-user-<n>'), email bench-posts-<n>@bench.hearth.test. Only the viewer
 *   (n = 1) and the likers (n = 101…150) get a credential account (one argon2id hash of PASSWORD,
 *   made with the server's own hashPassword), so they can sign in through the API.
 * - The community `bench-posts` (public, free): every user is a member; n = 2 owns it, 3–4 are admins,
 *   5–7 moderators, everyone else (the viewer included) a plain member. 5 post categories.
 * - Posts n = 1…200,000, id md5('hearth-bench-post-<n>')::uuid, one every 157.68 s from 2024-06-01
 *   (a year), 70% written by the 2,000 most active members. Types: 55% text, 20% image (1–4 images),
 *   7% video, 8% poll (2–5 options, open or closed), 10% link (with a preview). Visibility: 90%
 *   public, 8% members, 2% admins; 0.2% waiting for approval, 0.25% deleted; 3 pinned posts (public,
 *   approved); 5 in 6 in a category. Content is 1–13 sentences.
 * - Likes: exactly 1,000,000 post_likes rows on approved, undeleted posts, Zipf-like per post
 *   (weight rank^-0.7 over a permutation, so popularity does not follow age; the most liked post has
 *   about 8,000), liker k of a post is member 2 + (a + k·7919) mod 19,999, so a post never gets two
 *   likes from one user. The load skips the likes trigger and foreign-key checks
 *   (`session_replication_role = replica`, that session only); posts are then inserted with
 *   likes_count from a grouped count of those rows, and checked.
 * - The viewer (n = 1) has liked every third post of their first feed page, saved every fifth, and
 *   voted in most of its polls; 50,000 other saves and about 300,000 poll votes (from 2–20,000) exist,
 *   and poll results in poll_data are the grouped counts of poll_votes.
 * - No comments: comments_count is 0 everywhere (the feed reads the counter, not the rows).
 */
import type pg from "pg";
import { hashPassword } from "../../src/server/lib/auth";

export const POSTS_DATASET = {
  name: "posts",
  /** Bump when the generated rows change (the key also covers this file and the migrations). */
  version: 1,
  users: 20_000,
  posts: 200_000,
  likes: 1_000_000,
  otherSaves: 50_000,
  communitySlug: "bench-posts",
  /** The signed-in reader whose viewer state the feed shows. */
  viewer: 1,
  /** Members who toggle likes in the benchmark, one per connection. */
  likers: { first: 101, count: 50 },
  password: "bench-posts-password",
  zipfExponent: 0.7,
  pinned: [120_000, 170_000, 195_000],
  start: "2024-06-01 00:00:00+00",
  /** One post every this many milliseconds: 200,000 posts over 365 days. */
  spacingMs: 157_680,
} as const;

const D = POSTS_DATASET;
/** Likers are members 2…20,000 (the viewer's likes are made separately), stepped by a prime. */
const LIKER_POOL = D.users - 1;
const LIKER_STEP = 7919;

/** SQL for the id of user n (a number or an SQL expression). */
export const postsUserId = (n: number | string) => `md5('hearth-bench-posts-user-' || ${n})`;
export const postsUserEmail = (n: number) => `bench-posts-${n}@bench.hearth.test`;

const FIRST_NAMES = ["Ada", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jonas", "Kemi", "Luca"];
const LAST_NAMES = ["Abbott", "Baker", "Costa", "Diaz", "Evans", "Fischer", "Garcia", "Hansen", "Ito", "Jensen"];
const CATEGORIES: [string, string][] = [
  ["General", "💬"],
  ["Wins", "🏆"],
  ["Questions", "❓"],
  ["Recipes", "🍞"],
  ["Events", "📅"],
];
const SENTENCES = [
  "Pulled my best loaf yet out of the oven this morning and the crumb is finally open.",
  "Has anyone tried a longer cold retard with a high hydration dough?",
  "Sharing my notes from this week's live call: starter care, timing and shaping.",
  "Small win today: I kept my starter alive through a whole week of travel.",
  "What flour blend are you using for everyday sandwich bread?",
  "The trick that helped me most was watching the dough, not the clock.",
  "I wrote up the schedule I use on workdays so the bake fits around meetings.",
  "Thanks to everyone who answered my question about scoring patterns last week!",
  "Reminder: the monthly bake-along starts on Saturday, bring your questions.",
  "My rye experiment went sideways, but the flavour was worth it.",
  "Does anyone have tips for baking at altitude? My loaves keep spreading.",
  "Here is a photo diary of a full bake day, from levain to the first slice.",
];
const POLL_OPTIONS = ["Yes, every week", "Sometimes", "Not yet", "Only on weekends", "Never tried it"];
const POLL_QUESTIONS = [
  "How often do you bake?",
  "Which flour do you use most?",
  "Should we start a weekly challenge?",
  "Cold retard or same-day bake?",
];

const sqlText = (s: string) => `'${s.replaceAll("'", "''")}'`;
const sqlArray = (xs: string[]) => `ARRAY[${xs.map(sqlText).join(", ")}]`;
const iso = (ts: string) => `to_char((${ts}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const COMMUNITY_ID = `md5('hearth-bench-posts-community')::uuid`;
const categoryId = (i: string) => `md5('hearth-bench-posts-category-' || ${i})::uuid`;

type Step = { label: string; sql: string };

/** The statements, in order, each with a label for the build log. `$1` in the first is the password hash. */
export function postsDatasetSql(): Step[] {
  const viewerId = postsUserId(D.viewer);
  return [
    {
      label: "users",
      sql: `
INSERT INTO "user" (id, name, email, email_verified, created_at, updated_at)
SELECT ${postsUserId("n")},
       (${sqlArray(FIRST_NAMES)})[1 + n % ${FIRST_NAMES.length}] || ' ' || (${sqlArray(LAST_NAMES)})[1 + (n / 12) % 10],
       'bench-posts-' || n || '@bench.hearth.test', true, t, t
FROM generate_series(1, ${D.users}) n,
     LATERAL (SELECT timestamptz '2024-01-01 00:00:00+00' + n * interval '1 minute') ts(t)`,
    },
    {
      label: "user profiles",
      sql: `
INSERT INTO user_profiles (user_id, username, full_name, avatar_url, headline, location, created_at, updated_at)
SELECT u.id, 'baker' || n, u.name,
       CASE WHEN n % 10 < 6 THEN '/media/avatars/' || u.id || '.webp' END,
       CASE WHEN n % 3 = 0 THEN 'Home baker' ELSE '' END,
       (ARRAY['Lisbon', 'Toronto', 'Nairobi', 'Berlin', 'Osaka', ''])[1 + n % 6],
       u.created_at, u.created_at
FROM generate_series(1, ${D.users}) n JOIN "user" u ON u.id = ${postsUserId("n")}`,
    },
    {
      label: "credential accounts (viewer and likers)",
      sql: `
INSERT INTO account (id, account_id, provider_id, user_id, password, created_at, updated_at)
SELECT md5('hearth-bench-posts-account-' || n), u.id, 'credential', u.id, $1, u.created_at, u.created_at
FROM (SELECT ${D.viewer} AS n UNION ALL SELECT generate_series(${D.likers.first}, ${D.likers.first + D.likers.count - 1})) s
JOIN "user" u ON u.id = ${postsUserId("s.n")}`,
    },
    {
      label: "community",
      sql: `
INSERT INTO communities (id, name, slug, description, short_description, tagline, category, type, price,
  member_count, post_count, creator_name, visibility, invite_code, created_by, rules, onboarding_completed,
  created_at, updated_at)
SELECT ${COMMUNITY_ID}, 'Sourdough Bakers Guild', '${D.communitySlug}',
       'Bakers sharing loaves, schedules, questions and wins. Weekly bake-alongs and an honest crumb shot review.',
       'Bakers sharing loaves and schedules.', 'Bake, share and learn together', 'wellness', 'free', 0,
       ${D.users}, 0, o.name, 'public', 'benchPostsInviteCode00', o.id,
       '["Be kind", "No spam", "Share what you learn"]'::jsonb, true,
       timestamptz '2024-01-01 00:00:00+00', timestamptz '2024-01-01 00:00:00+00'
FROM "user" o WHERE o.id = ${postsUserId(2)}`,
    },
    {
      label: "post categories",
      sql: `
INSERT INTO post_categories (id, community_id, name, emoji, order_index)
SELECT ${categoryId("i")}, ${COMMUNITY_ID}, (${sqlArray(CATEGORIES.map((c) => c[0]))})[i],
       (${sqlArray(CATEGORIES.map((c) => c[1]))})[i], i - 1
FROM generate_series(1, ${CATEGORIES.length}) i`,
    },
    {
      label: "plan (posts)",
      sql: `
CREATE TEMP TABLE bench_posts AS
WITH base AS (
  SELECT n, md5('hearth-bench-post-' || n)::uuid AS id,
         abs(hashint4(n)::bigint) AS h1, abs(hashint4(n + 1000003)::bigint) AS h2,
         abs(hashint4(n + 2000003)::bigint) AS h3,
         n IN (${D.pinned.join(", ")}) AS pinned
  FROM generate_series(1, ${D.posts}) n
)
SELECT n, id, h1, h2, h3, pinned,
       timestamptz '${D.start}' + (n::bigint * ${D.spacingMs} + h1 % 60000) * interval '1 millisecond' AS created_at,
       CASE WHEN h1 % 10 < 7 THEN 1 + h2 % 2000 ELSE 1 + h2 % ${D.users} END AS author_n,
       CASE WHEN h3 % 100 < 55 THEN 'text' WHEN h3 % 100 < 75 THEN 'image' WHEN h3 % 100 < 82 THEN 'video'
            WHEN h3 % 100 < 90 THEN 'poll' ELSE 'link' END AS type,
       CASE WHEN pinned OR h2 % 100 < 90 THEN 'public' WHEN h2 % 100 < 98 THEN 'members' ELSE 'admins' END AS visibility,
       pinned OR h3 % 500 <> 7 AS approved,
       NOT pinned AND h1 % 400 = 11 AS deleted,
       CASE WHEN h2 % 6 = 0 THEN NULL ELSE h2 % 6 END AS category,
       2 + h2 % 4 AS options
FROM base`,
    },
    {
      label: "plan (the viewer's first feed page)",
      sql: `
CREATE TEMP TABLE bench_first_page AS
SELECT id, type, approved, options, row_number() OVER (ORDER BY pinned DESC, created_at DESC, id DESC) AS rn
FROM bench_posts
WHERE NOT deleted AND (approved OR author_n = ${D.viewer}) AND visibility IN ('public', 'members')
ORDER BY pinned DESC, created_at DESC, id DESC
LIMIT 50`,
    },
    {
      // Exactly D.likes in all: the viewer's likes (every third post of their first page) plus these.
      label: "plan (likeable posts, Zipf-like like counts)",
      sql: `
CREATE TEMP TABLE bench_liked AS
WITH eligible AS (
  SELECT id, n, h1, h2, created_at, row_number() OVER (ORDER BY n) AS e, count(*) OVER () AS total
  FROM bench_posts WHERE approved AND NOT deleted
), weighted AS (
  SELECT *, power((((e - 1) * 104729) % total + 1)::float8, -${D.zipfExponent}::float8) AS wt FROM eligible
), cumulative AS (
  SELECT *, sum(wt) OVER (ORDER BY e) AS cum, sum(wt) OVER () AS wsum FROM weighted
), target AS (
  SELECT ${D.likes} - (SELECT count(*) FROM bench_first_page WHERE rn % 3 = 1 AND approved) AS likes
)
SELECT id, n, h1, h2, created_at, e,
       (round(t.likes * cum / wsum) - round(t.likes * (cum - wt) / wsum))::int AS likes
FROM cumulative, target t`,
    },
    // The likes trigger and the foreign-key checks are skipped for these loads (session_replication_role
    // = replica, this session only): the rows are consistent by construction, and checked after the build.
    { label: "triggers off", sql: "SET session_replication_role = replica" },
    {
      label: "memberships",
      sql: `
INSERT INTO community_members (community_id, user_id, role, joined_via_invite, joined_at, last_active_at)
SELECT ${COMMUNITY_ID}, ${postsUserId("n")},
       CASE n WHEN 2 THEN 'owner' WHEN 3 THEN 'admin' WHEN 4 THEN 'admin' WHEN 5 THEN 'moderator' WHEN 6 THEN 'moderator'
            WHEN 7 THEN 'moderator' ELSE 'member' END,
       n % 10 = 0, timestamptz '2024-01-01 00:00:00+00' + n * interval '3 minutes',
       timestamptz '2024-03-01 00:00:00+00' + (n % 5000) * interval '1 hour'
FROM generate_series(1, ${D.users}) n
ORDER BY n`,
    },
    {
      label: "likes (viewer)",
      sql: `
INSERT INTO post_likes (post_id, user_id, created_at)
SELECT f.id, ${viewerId}, timestamptz '2025-06-01 00:00:00+00' + f.rn * interval '1 minute'
FROM bench_first_page f WHERE f.rn % 3 = 1 AND f.approved`,
    },
    {
      label: "likes (bulk)",
      sql: `
INSERT INTO post_likes (post_id, user_id, created_at)
SELECT l.id, ${postsUserId(`(2 + (l.h2 % ${LIKER_POOL} + k::bigint * ${LIKER_STEP}) % ${LIKER_POOL})`)},
       l.created_at + (k * 37 + l.h1 % 3600) * interval '1 second'
FROM bench_liked l CROSS JOIN LATERAL generate_series(0, l.likes - 1) k
ORDER BY l.id, k`,
    },
    {
      label: "saves",
      sql: `
INSERT INTO saved_posts (post_id, user_id, created_at)
SELECT f.id, ${viewerId}, timestamptz '2025-06-02 00:00:00+00' + f.rn * interval '1 minute'
FROM bench_first_page f WHERE f.rn % 5 = 2
UNION ALL
SELECT l.id, ${postsUserId(`(2 + (s::bigint * ${LIKER_STEP}) % ${LIKER_POOL})`)},
       l.created_at + interval '2 days'
FROM generate_series(1, ${D.otherSaves}) s
JOIN bench_liked l ON l.e = 1 + (s::bigint * 15485863) % (SELECT count(*) FROM bench_liked)
ON CONFLICT DO NOTHING`,
    },
    {
      label: "poll votes",
      sql: `
INSERT INTO poll_votes (post_id, user_id, option_index, created_at)
SELECT f.id, ${viewerId}, (f.rn % f.options)::smallint, timestamptz '2025-06-03 00:00:00+00'
FROM bench_first_page f WHERE f.type = 'poll' AND f.approved AND f.rn % 3 <> 0
UNION ALL
SELECT p.id, ${postsUserId(`(2 + (p.h2 % ${LIKER_POOL} + k::bigint * ${LIKER_STEP}) % ${LIKER_POOL})`)},
       ((p.h3 + k * 31) % p.options)::smallint, p.created_at + k * interval '5 minutes'
FROM bench_posts p CROSS JOIN LATERAL generate_series(0, (p.h1 % 40)::int - 1) k
WHERE p.type = 'poll' AND p.approved AND NOT p.deleted
ORDER BY 1, 2`,
    },
    { label: "triggers on", sql: "RESET session_replication_role" },
    {
      label: "grouped counts",
      sql: `
CREATE TEMP TABLE bench_like_counts AS SELECT post_id, count(*)::int AS n FROM post_likes GROUP BY post_id;
CREATE UNIQUE INDEX ON bench_like_counts (post_id);
CREATE TEMP TABLE bench_vote_counts AS
  SELECT post_id, option_index, count(*)::int AS n FROM poll_votes GROUP BY post_id, option_index;
CREATE UNIQUE INDEX ON bench_vote_counts (post_id, option_index)`,
    },
    // The community's post_count is set once below: its per-row trigger (migration 0039) would
    // update the one community row 200,000 times at this statement's commit.
    { label: "post count trigger off", sql: "ALTER TABLE posts DISABLE TRIGGER posts_count_insert" },
    {
      label: "posts",
      sql: `
INSERT INTO posts (id, community_id, author_id, category_id, content, type, is_approved, visibility, is_edited,
  is_pinned, likes_count, comments_count, share_count, media_urls, poll_data, link_preview, created_at, updated_at,
  deleted_at)
SELECT p.id, ${COMMUNITY_ID}, ${postsUserId("p.author_n")},
       CASE WHEN p.category IS NOT NULL THEN ${categoryId("p.category")} END,
       CASE WHEN p.type = 'poll' THEN (${sqlArray(POLL_QUESTIONS)})[1 + p.h1 % ${POLL_QUESTIONS.length}] || ' ' ELSE '' END ||
         array_to_string(ARRAY(
           SELECT (${sqlArray(SENTENCES)})[1 + (p.h1 + i * 5) % ${SENTENCES.length}]
           FROM generate_series(1, 1 + (p.h2 % 5)::int + CASE WHEN p.h3 % 10 = 0 THEN 8 ELSE 0 END) i ORDER BY i), ' ') ||
         CASE WHEN p.type = 'link' THEN ' https://bread.example.org/articles/' || p.n ELSE '' END,
       p.type, p.approved, p.visibility, p.h2 % 20 = 3, p.pinned,
       coalesce(lc.n, 0), 0, CASE WHEN p.h3 % 7 = 0 THEN (p.h1 % 25)::int ELSE 0 END,
       CASE p.type
         WHEN 'image' THEN (
           SELECT jsonb_agg(jsonb_build_object('type', 'image', 'url', u || '.webp', 'medium', u || '-medium.webp',
                                               'thumbnail', u || '-thumbnail.webp') ORDER BY i)
           FROM generate_series(1, 1 + (p.h1 % 4)::int) i,
                LATERAL (SELECT '/media/community-assets/' || ${COMMUNITY_ID} || '/posts/' ||
                                md5(p.id::text || '-' || i)::uuid AS u) x)
         WHEN 'video' THEN jsonb_build_array(jsonb_build_object('type', 'video', 'url',
           'https://www.youtube.com/watch?v=' ||
           left(translate(encode(decode(md5(p.id::text), 'hex'), 'base64'), '+/', '-_'), 11)))
         ELSE '[]'::jsonb END,
       CASE WHEN p.type = 'poll' THEN (
         SELECT jsonb_build_object(
                  'options', jsonb_agg(jsonb_build_object('id', md5(p.id::text || '-option-' || i)::uuid::text,
                                                          'text', (${sqlArray(POLL_OPTIONS)})[1 + i],
                                                          'votes', coalesce(v.n, 0)) ORDER BY i),
                  'duration_hours', d.hours,
                  'expires_at', CASE WHEN d.hours > 0 THEN ${iso("p.created_at + d.hours * interval '1 hour'")} END,
                  'total_votes', coalesce(sum(v.n), 0))
         FROM generate_series(0, (p.options - 1)::int) i
         CROSS JOIN (SELECT (ARRAY[0, 24, 72, 168])[1 + p.h3 % 4] AS hours) d
         LEFT JOIN bench_vote_counts v ON v.post_id = p.id AND v.option_index = i
         GROUP BY d.hours) END,
       CASE WHEN p.type = 'link' THEN jsonb_build_object(
         'url', 'https://bread.example.org/articles/' || p.n,
         'title', 'Baking notes #' || p.n,
         'description', 'A long read on fermentation, timing and shaping, with photos of every step.',
         'image', CASE WHEN p.h3 % 2 = 0 THEN 'https://bread.example.org/images/' || p.n || '.jpg' END) END,
       p.created_at, p.created_at,
       CASE WHEN p.deleted THEN p.created_at + interval '3 hours' END
FROM bench_posts p LEFT JOIN bench_like_counts lc ON lc.post_id = p.id
ORDER BY p.n`,
    },
    { label: "post count trigger on", sql: "ALTER TABLE posts ENABLE TRIGGER posts_count_insert" },
    {
      label: "post count",
      sql: `
UPDATE communities SET post_count = (
  SELECT count(*) FROM posts WHERE community_id = ${COMMUNITY_ID} AND is_approved AND deleted_at IS NULL)
WHERE id = ${COMMUNITY_ID}`,
    },
    {
      label: "vacuum analyze",
      sql: `VACUUM (ANALYZE) "user", user_profiles, account, communities, post_categories, community_members, posts,
        post_likes, saved_posts, poll_votes`,
    },
    // The load left WAL segments kept for reuse: a checkpoint under a small max_wal_size drops them,
    // so each run copies less. The setting is reset before the server stops.
    { label: "shrink WAL", sql: "ALTER SYSTEM SET max_wal_size = '96MB'" },
    { label: "reload", sql: "SELECT pg_reload_conf(), pg_sleep(1)" },
    { label: "checkpoint", sql: "CHECKPOINT" },
    { label: "switch WAL", sql: "SELECT pg_switch_wal()" },
    { label: "checkpoint", sql: "CHECKPOINT" },
    { label: "restore max_wal_size", sql: "ALTER SYSTEM RESET max_wal_size" },
    { label: "reload", sql: "SELECT pg_reload_conf()" },
  ];
}

export type PostsDatasetFacts = {
  users: number;
  credentialUsers: number;
  members: number;
  posts: number;
  likes: number;
  saves: number;
  pollVotes: number;
  byType: Record<string, number>;
  pinned: number;
  pending: number;
  deleted: number;
  /** Posts the viewer (a plain member) sees in the feed: approved or their own, not deleted, public or members. */
  visibleToViewer: number;
  /** Posts an anonymous reader sees: approved, not deleted, public. */
  visibleToAnonymous: number;
  mostLikes: number;
  medianLikes: number;
  /** The viewer's state on their first feed page (50 posts). */
  viewerFirstPage: { liked: number; saved: number; voted: number; polls: number };
  dataBytes: number;
};

/** Runs the statements on a connected client (as the database owner) and checks the result. */
export async function buildPostsDataset(client: pg.Client, log: (line: string) => void): Promise<PostsDatasetFacts> {
  await client.query("SET work_mem = '256MB'; SET maintenance_work_mem = '512MB'; SET synchronous_commit = off");
  const t0 = performance.now();
  const hash = await hashPassword(D.password);
  log(`password hash: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  for (const step of postsDatasetSql()) {
    const t1 = performance.now();
    const res = await client.query(step.sql, step.sql.includes("$1") ? [hash] : undefined);
    const last = Array.isArray(res) ? res.at(-1) : res;
    const rows = typeof last?.rowCount === "number" ? `, ${last.rowCount.toLocaleString("en-US")} rows` : "";
    log(`${step.label}: ${((performance.now() - t1) / 1000).toFixed(1)} s${rows}`);
  }

  const one = async <T>(sql: string): Promise<T> => (await client.query(sql)).rows[0] as T;
  const viewerId = postsUserId(D.viewer);
  const facts = await one<Omit<PostsDatasetFacts, "byType" | "viewerFirstPage">>(`
    SELECT (SELECT count(*)::int FROM "user" WHERE email LIKE 'bench-posts-%') AS users,
           (SELECT count(*)::int FROM account WHERE provider_id = 'credential') AS "credentialUsers",
           (SELECT count(*)::int FROM community_members) AS members,
           (SELECT count(*)::int FROM posts) AS posts,
           (SELECT count(*)::int FROM post_likes) AS likes,
           (SELECT count(*)::int FROM saved_posts) AS saves,
           (SELECT count(*)::int FROM poll_votes) AS "pollVotes",
           (SELECT count(*)::int FROM posts WHERE is_pinned) AS pinned,
           (SELECT count(*)::int FROM posts WHERE NOT is_approved) AS pending,
           (SELECT count(*)::int FROM posts WHERE deleted_at IS NOT NULL) AS deleted,
           (SELECT count(*)::int FROM posts WHERE deleted_at IS NULL AND (is_approved OR author_id = ${viewerId})
              AND visibility IN ('public', 'members')) AS "visibleToViewer",
           (SELECT count(*)::int FROM posts WHERE deleted_at IS NULL AND is_approved AND visibility = 'public')
              AS "visibleToAnonymous",
           (SELECT max(likes_count) FROM posts) AS "mostLikes",
           (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY likes_count) FROM posts) AS "medianLikes",
           (SELECT pg_database_size(current_database()))::bigint AS "dataBytes"`);
  const byType = Object.fromEntries(
    (
      await client.query<{ type: string; n: number }>(
        "SELECT type, count(*)::int AS n FROM posts GROUP BY type ORDER BY type",
      )
    ).rows.map((r) => [r.type, r.n]),
  );
  const viewerFirstPage = await one<PostsDatasetFacts["viewerFirstPage"]>(`
    SELECT count(*) FILTER (WHERE EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = f.id AND l.user_id = ${viewerId}))::int AS liked,
           count(*) FILTER (WHERE EXISTS (SELECT 1 FROM saved_posts s WHERE s.post_id = f.id AND s.user_id = ${viewerId}))::int AS saved,
           count(*) FILTER (WHERE EXISTS (SELECT 1 FROM poll_votes v WHERE v.post_id = f.id AND v.user_id = ${viewerId}))::int AS voted,
           count(*) FILTER (WHERE f.type = 'poll')::int AS polls
    FROM bench_first_page f`);

  // Consistency: every counter equals its rows, and no row points at nothing.
  const wrongCounts = await one<{ n: number }>(`
    SELECT count(*)::int AS n FROM posts p
    LEFT JOIN (SELECT post_id, count(*)::int AS n FROM post_likes GROUP BY post_id) c ON c.post_id = p.id
    WHERE p.likes_count <> coalesce(c.n, 0)`);
  if (wrongCounts.n > 0)
    throw new Error(`${wrongCounts.n} posts have a likes_count that is not COUNT(*) of their likes`);
  const wrongPolls = await one<{ n: number }>(`
    SELECT count(*)::int AS n FROM posts p
    WHERE p.poll_data IS NOT NULL AND (p.poll_data ->> 'total_votes')::int <>
          (SELECT count(*) FROM poll_votes v WHERE v.post_id = p.id)`);
  if (wrongPolls.n > 0) throw new Error(`${wrongPolls.n} polls have a total_votes that is not COUNT(*) of their votes`);
  const orphans = await one<{ n: number }>(`
    SELECT (SELECT count(*) FROM post_likes l WHERE NOT EXISTS (SELECT 1 FROM posts p WHERE p.id = l.post_id)
              OR NOT EXISTS (SELECT 1 FROM "user" u WHERE u.id = l.user_id))
         + (SELECT count(*) FROM saved_posts s WHERE NOT EXISTS (SELECT 1 FROM posts p WHERE p.id = s.post_id))
         + (SELECT count(*) FROM poll_votes v WHERE NOT EXISTS (SELECT 1 FROM posts p WHERE p.id = v.post_id))
         + (SELECT count(*) FROM posts p WHERE NOT EXISTS (SELECT 1 FROM "user" u WHERE u.id = p.author_id))
         + (SELECT count(*) FROM community_members m WHERE NOT EXISTS (SELECT 1 FROM "user" u WHERE u.id = m.user_id))
      AS n`);
  if (Number(orphans.n) > 0) throw new Error(`${orphans.n} rows point at a missing post or user`);
  const expected = { users: D.users, members: D.users, posts: D.posts, likes: D.likes, pinned: D.pinned.length };
  for (const [k, v] of Object.entries(expected)) {
    if (facts[k as keyof typeof expected] !== v) {
      throw new Error(`expected ${v} ${k}, found ${facts[k as keyof typeof expected]}`);
    }
  }
  if (facts.credentialUsers !== 1 + D.likers.count) throw new Error(`${facts.credentialUsers} credential accounts`);
  if (!viewerFirstPage.liked || !viewerFirstPage.saved || !viewerFirstPage.voted) {
    throw new Error(`the viewer's first page lacks likes, saves or votes: ${JSON.stringify(viewerFirstPage)}`);
  }
  return { ...facts, dataBytes: Number(facts.dataBytes), byType, viewerFirstPage };
}
