/**
 * The communities data set: 100,000 communities and 1,000,000 memberships over 50,000 users, made
 * with set-based SQL (generate_series, INSERT … SELECT) on a Hearth database that the server itself
 * created and migrated, with the demo seed off: the data set is all there is, and since the user
 * table is then not empty, a server started later on a copy skips its demo seed.
 *
 * Everything is deterministic (hashes of the row number, no random()), so every build of one
 * version holds the same rows and runs stay comparable.
 *
 * - Users: `user` and `user_profiles` rows only (no credentials: nobody signs in as them). Ids are
 *   md5('hearth-bench-user-<n>'), n = 1…50,000.
 * - Communities: n = 1…100,000, id md5('hearth-bench-community-<n>')::uuid, in all 7 categories
 *   (uneven shares), about 3% private, about 15% paid, 2% with a custom slug. Member counts follow a
 *   Zipf-like law (weight rank^-0.8 over a permutation of n, so size does not follow insertion
 *   order): the largest has about 19,700 members, the median about 4.
 * - Memberships: one owner row per community (20,000 distinct owners) plus exactly 900,000 other
 *   members, distinct by construction: member k of a community is user (owner + k·step) mod 50,000
 *   with step prime, so k = 1…extra never repeats a user nor hits the owner.
 * - Every community has 2 to 4 post categories, a unique 22-character invite code (the shape the
 *   server makes) and timestamps well in the past, so no member counts as online and a view's bytes
 *   do not change while it is measured.
 * - Keyword search: "sourdough" appears in the name and description of exactly the communities with
 *   n mod 331 = 7 (303 rows, about 294 public) and nowhere else.
 */
import type pg from "pg";

export const COMMUNITIES_DATASET = {
  name: "communities",
  /** Bump when the generated rows change (the key also covers this file and the migrations). */
  version: 1,
  users: 50_000,
  owners: 20_000,
  communities: 100_000,
  memberships: 1_000_000,
  zipfExponent: 0.8,
  /** Matches a few hundred communities (see above). */
  searchTerm: "sourdough",
  searchModulus: 331,
  searchRemainder: 7,
} as const;

const D = COMMUNITIES_DATASET;
const EXTRA_MEMBERS = D.memberships - D.communities; // the owners' rows are the other 100,000

const ADJECTIVES = [
  "Bright",
  "Bold",
  "Clever",
  "Curious",
  "Daily",
  "Focused",
  "Friendly",
  "Global",
  "Happy",
  "Modern",
  "Mindful",
  "Nimble",
  "Quiet",
  "Smart",
  "Steady",
  "Urban",
];

// Category id, share of communities (percent), nouns (at most 13 characters, so a name fits in 30).
const CATEGORIES: [string, number, string[]][] = [
  ["technology", 22, ["Developers", "Coders", "Engineers", "Hackers", "Designers", "Data Nerds", "Makers", "Gamers"]],
  [
    "business",
    18,
    ["Founders", "Operators", "Consultants", "Freelancers", "Leaders", "Managers", "Bootstrappers", "Agencies"],
  ],
  ["health", 14, ["Runners", "Lifters", "Cyclists", "Swimmers", "Climbers", "Nutritionists", "Coaches", "Hikers"]],
  ["arts", 14, ["Painters", "Illustrators", "Potters", "Writers", "Musicians", "Photographers", "Sculptors", "Poets"]],
  ["finance", 12, ["Investors", "Traders", "Savers", "Accountants", "Budgeters", "Analysts", "Planners", "Economists"]],
  [
    "marketing",
    10,
    ["Marketers", "Copywriters", "Creators", "Podcasters", "Bloggers", "Advertisers", "Streamers", "Brand Nerds"],
  ],
  ["wellness", 10, ["Meditators", "Yogis", "Journalers", "Gardeners", "Minimalists", "Stoics", "Walkers", "Healers"]],
];

const FIRST_NAMES = ["Ada", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jonas"];
const LAST_NAMES = ["Abbott", "Baker", "Costa", "Diaz", "Evans", "Fischer", "Garcia", "Hansen", "Ito", "Jensen"];

const sqlText = (s: string) => `'${s.replaceAll("'", "''")}'`;
const sqlArray = (xs: string[]) => `ARRAY[${xs.map(sqlText).join(", ")}]`;

/** A CASE over the cumulative category shares: percent bucket (0–99) → category id or noun list. */
function byCategory(bucket: string, value: (c: (typeof CATEGORIES)[number]) => string): string {
  let upTo = 0;
  const arms = CATEGORIES.map((c) => {
    upTo += c[1];
    return `WHEN ${bucket} < ${upTo} THEN ${value(c)}`;
  });
  return `CASE ${arms.join(" ")} END`;
}
if (CATEGORIES.reduce((a, c) => a + c[1], 0) !== 100) throw new Error("category shares must add up to 100");

type Step = {
  label: string;
  sql: string;
  /** The statement must touch no row (a consistency check). */ changesNone?: boolean;
};

/** The statements, in order, each with a label for the build log. */
export function communitiesDatasetSql(): Step[] {
  const userId = (n: string) => `md5('hearth-bench-user-' || ${n})`;
  return [
    {
      label: "users",
      sql: `
INSERT INTO "user" (id, name, email, email_verified, created_at, updated_at)
SELECT ${userId("n")},
       (${sqlArray(FIRST_NAMES)})[1 + n % 10] || ' ' || (${sqlArray(LAST_NAMES)})[1 + (n / 10) % 10],
       'bench-user-' || n || '@bench.hearth.test', true, t, t
FROM generate_series(1, ${D.users}) n,
     LATERAL (SELECT timestamptz '2022-06-01 00:00:00+00' + n * interval '9 minutes') ts(t)`,
    },
    {
      label: "user profiles",
      sql: `
INSERT INTO user_profiles (user_id, username, full_name, headline, location, created_at, updated_at)
SELECT u.id, 'member' || n, u.name,
       CASE WHEN n % 3 = 0 THEN 'Learning in public' ELSE '' END,
       (ARRAY['Lisbon', 'Toronto', 'Nairobi', 'Berlin', 'Osaka', ''])[1 + n % 6],
       u.created_at, u.created_at
FROM generate_series(1, ${D.users}) n JOIN "user" u ON u.id = ${userId("n")}`,
    },
    {
      label: "plan (ranks, sizes, owners)",
      sql: `
CREATE TEMP TABLE bench_plan AS
WITH base AS (
  SELECT n,
         ((n::bigint - 1) * 7919) % ${D.communities} + 1 AS r,
         abs(hashint4(n)::bigint) AS h1, abs(hashint4(n + 1000003)::bigint) AS h2,
         abs(hashint4(n + 2000003)::bigint) AS h3
  FROM generate_series(1, ${D.communities}) n
), weighted AS (
  SELECT *, power(r, -${D.zipfExponent}) AS wt FROM base
), cumulative AS (
  SELECT *, sum(wt) OVER (ORDER BY r) AS cum FROM weighted
), shares AS (
  SELECT *, lag(cum, 1, 0::double precision) OVER (ORDER BY r) AS prev, max(cum) OVER () AS total FROM cumulative
)
SELECT n, r, h1, h2, h3,
       md5('hearth-bench-community-' || n)::uuid AS id,
       (n - 1) * 7 % ${D.owners} + 1 AS owner,
       (ARRAY[7919, 104729, 1299709, 15485863])[1 + n % 4]::bigint AS step,
       (round(${EXTRA_MEMBERS} * cum / total) - round(${EXTRA_MEMBERS} * prev / total))::int AS extra,
       timestamptz '2023-01-01 00:00:00+00' + (h1 % (600 * 1440)) * interval '1 minute' AS created_at,
       n % ${D.searchModulus} = ${D.searchRemainder} AS sourdough
FROM shares`,
    },
    {
      label: "communities",
      sql: `
INSERT INTO communities (id, name, slug, custom_slug, description, short_description, tagline, category, type,
  price, member_count, post_count, icon_url, cover_url, is_featured, creator_name, visibility, invite_code,
  created_by, rules, onboarding_completed, created_at, updated_at)
SELECT p.id, x.name, lower(replace(x.name, ' ', '-')),
       CASE WHEN p.h2 % 50 = 0 THEN 'club-' || p.n END,
       'A ' || lower(x.adjective) || ' community of ' || x.members ||
         ' sharing ideas, wins and lessons. Weekly live calls, a resource library and honest feedback.',
       'A ' || lower(x.adjective) || ' community of ' || x.members || '.',
       'Learn, share and grow with other ' || x.members,
       x.category,
       CASE WHEN p.h3 % 100 < 15 THEN 'paid' ELSE 'free' END,
       CASE WHEN p.h3 % 100 < 15 THEN (ARRAY[9, 19, 29, 49, 99])[1 + p.h1 % 5] ELSE 0 END,
       1 + p.extra,
       (1 + p.extra) * (p.h2 % 5) / 2,
       CASE WHEN p.h1 % 10 < 6 THEN '/media/communities/' || p.id || '/icon.webp' END,
       CASE WHEN p.h1 % 10 < 4 THEN '/media/communities/' || p.id || '/cover.webp' END,
       p.r <= 12,
       o.name,
       CASE WHEN p.h2 % 100 < 3 THEN 'private' ELSE 'public' END,
       rtrim(translate(encode(decode(md5('hearth-bench-invite-' || p.n), 'hex'), 'base64'), '+/', '-_'), '='),
       o.id,
       '["Be kind and respectful", "No spam or self-promotion", "Stay on topic"]'::jsonb,
       p.h3 % 4 <> 0,
       p.created_at, p.created_at
FROM bench_plan p
JOIN "user" o ON o.id = ${userId("p.owner")}
CROSS JOIN LATERAL (
  SELECT ${byCategory("p.h1 % 100", (c) => sqlText(c[0]))} AS category,
         (${sqlArray(ADJECTIVES)})[1 + p.h2 % ${ADJECTIVES.length}] AS adjective,
         CASE WHEN p.sourdough THEN 'Sourdough'
              ELSE (${byCategory("p.h1 % 100", (c) => sqlArray(c[2]))})[1 + p.h3 % 8] END AS noun
) y
CROSS JOIN LATERAL (
  SELECT y.category, y.adjective, y.adjective || ' ' || y.noun || ' ' || p.n AS name,
         CASE WHEN p.sourdough THEN 'sourdough bakers' ELSE lower(y.noun) END AS members
) x
ORDER BY p.n`,
    },
    {
      label: "post categories",
      sql: `
INSERT INTO post_categories (community_id, name, emoji, order_index)
SELECT p.id, (ARRAY['General', 'Introductions', 'Wins', 'Questions'])[i], (ARRAY['💬', '👋', '🏆', '❓'])[i], i - 1
FROM bench_plan p CROSS JOIN LATERAL generate_series(1, 2 + (p.h3 % 3)::int) i
ORDER BY p.id, i`,
    },
    // The member_count trigger and the foreign-key checks are skipped for this one load (session_replication_role
    // = replica, this session only): the rows are consistent by construction, and checked after the build.
    { label: "triggers off", sql: "SET session_replication_role = replica" },
    {
      label: "memberships",
      sql: `
INSERT INTO community_members (community_id, user_id, role, joined_via_invite, joined_at, last_active_at)
SELECT id, user_id, role, via_invite, joined_at, last_active_at FROM (
  SELECT p.id, ${userId("p.owner")} AS user_id, 'owner' AS role, false AS via_invite, p.created_at AS joined_at,
         p.created_at + (p.h2 % 20000) * interval '1 hour' AS last_active_at
  FROM bench_plan p
  UNION ALL
  SELECT p.id, ${userId(`((p.owner - 1 + k * p.step) % ${D.users} + 1)`)},
         CASE WHEN k = 1 AND p.extra >= 20 THEN 'admin' WHEN k <= 3 AND p.extra >= 50 THEN 'moderator' ELSE 'member' END,
         (k + p.h3) % 10 = 0,
         p.created_at + k * interval '173 seconds',
         CASE WHEN (k + p.h2) % 10 < 3 THEN NULL
              ELSE p.created_at + k * interval '173 seconds' + ((k * 7919 + p.h2) % 5000) * interval '1 hour' END
  FROM bench_plan p CROSS JOIN LATERAL generate_series(1, p.extra) k
) m
ORDER BY id, joined_at`,
    },
    { label: "triggers on", sql: "RESET session_replication_role" },
    {
      // member_count was written from the plan; recount from the rows in one UPDATE, which must change none.
      label: "member counts",
      changesNone: true,
      sql: `
WITH counted AS (SELECT community_id, count(*)::int AS n FROM community_members GROUP BY community_id)
UPDATE communities c SET member_count = counted.n FROM counted
WHERE counted.community_id = c.id AND c.member_count <> counted.n`,
    },
    {
      label: "vacuum analyze",
      sql: `VACUUM (ANALYZE) "user", user_profiles, communities, post_categories, community_members`,
    },
    // The load left about 1 GB of WAL segments kept for reuse: a checkpoint under a small max_wal_size
    // drops them, so each run copies half as much. The setting is reset before the server stops.
    { label: "shrink WAL", sql: "ALTER SYSTEM SET max_wal_size = '96MB'" },
    { label: "reload", sql: "SELECT pg_reload_conf(), pg_sleep(1)" },
    { label: "checkpoint", sql: "CHECKPOINT" },
    { label: "switch WAL", sql: "SELECT pg_switch_wal()" },
    { label: "checkpoint", sql: "CHECKPOINT" },
    { label: "restore max_wal_size", sql: "ALTER SYSTEM RESET max_wal_size" },
    { label: "reload", sql: "SELECT pg_reload_conf()" },
  ];
}

export type CommunitiesDatasetFacts = {
  users: number;
  communities: number;
  publicCommunities: number;
  privateCommunities: number;
  memberships: number;
  largestCommunity: { slug: string; memberCount: number };
  medianMemberCount: number;
  searchMatches: number;
  publicSearchMatches: number;
  byCategory: Record<string, number>;
};

/** Runs the statements on a connected client (as the database owner) and checks the result. */
export async function buildCommunitiesDataset(
  client: pg.Client,
  log: (line: string) => void,
): Promise<CommunitiesDatasetFacts> {
  await client.query("SET work_mem = '256MB'; SET maintenance_work_mem = '512MB'; SET synchronous_commit = off");
  for (const step of communitiesDatasetSql()) {
    const t0 = performance.now();
    const { rowCount } = await client.query(step.sql);
    const rows = typeof rowCount === "number" ? `, ${rowCount.toLocaleString("en-US")} rows` : "";
    log(`${step.label}: ${((performance.now() - t0) / 1000).toFixed(1)} s${rows}`);
    if (step.changesNone && rowCount) throw new Error(`${step.label}: ${rowCount} rows did not match (expected none)`);
  }
  const one = async <T>(sql: string): Promise<T> => (await client.query(sql)).rows[0] as T;
  const facts = await one<Omit<CommunitiesDatasetFacts, "largestCommunity" | "byCategory">>(`
    SELECT (SELECT count(*)::int FROM "user" WHERE email LIKE '%@bench.hearth.test') AS users,
           (SELECT count(*)::int FROM communities) AS communities,
           (SELECT count(*)::int FROM communities WHERE visibility = 'public') AS "publicCommunities",
           (SELECT count(*)::int FROM communities WHERE visibility = 'private') AS "privateCommunities",
           (SELECT count(*)::int FROM community_members) AS memberships,
           (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY member_count) FROM communities) AS "medianMemberCount",
           (SELECT count(*)::int FROM communities WHERE name || ' ' || description ILIKE '%${D.searchTerm}%')
             AS "searchMatches",
           (SELECT count(*)::int FROM communities
             WHERE visibility = 'public' AND name || ' ' || description ILIKE '%${D.searchTerm}%') AS "publicSearchMatches"`);
  const largestCommunity = await one<{ slug: string; memberCount: number }>(
    `SELECT slug, member_count AS "memberCount" FROM communities WHERE visibility = 'public' ORDER BY member_count DESC, id LIMIT 1`,
  );
  const byCategory = Object.fromEntries(
    (
      await client.query<{ category: string; n: number }>(
        "SELECT category, count(*)::int AS n FROM communities GROUP BY category ORDER BY category",
      )
    ).rows.map((r) => [r.category, r.n]),
  );
  const orphans = await one<{ n: number }>(`
    SELECT count(*)::int AS n FROM community_members m
    WHERE NOT EXISTS (SELECT 1 FROM "user" u WHERE u.id = m.user_id)
       OR NOT EXISTS (SELECT 1 FROM communities c WHERE c.id = m.community_id)`);
  if (orphans.n > 0) throw new Error(`${orphans.n} membership rows point at a missing user or community`);
  const expected = { users: D.users, communities: D.communities, memberships: D.memberships };
  for (const [k, v] of Object.entries(expected)) {
    if (facts[k as keyof typeof expected] !== v) {
      throw new Error(`expected ${v} ${k}, found ${facts[k as keyof typeof expected]}`);
    }
  }
  return { ...facts, largestCommunity, byCategory };
}
