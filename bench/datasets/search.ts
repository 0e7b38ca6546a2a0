/**
 * The search data set (issue 21): one public community, `bench-search`, of 200,000 posts and five
 * comments a post (1,000,000), by 1,000 members, written with set-based SQL with row triggers off and
 * then indexed set-based by migration 0025's backfill function (the path a large database takes).
 *
 * Everything is deterministic (hashes of the row number, no random()), so every build of one version
 * holds the same rows and runs stay comparable.
 *
 * - Users n = 1…1,000: `user` and `user_profiles` rows, id md5('hearth-bench-search-user-<n>'), all
 *   members; n = 1 owns the community. No credentials: the benchmark signs sessions itself.
 * - Posts n = 1…200,000, one every 150 s back from the build, two sentences of SENTENCES each (the
 *   eight profile languages mixed); 'bread' is common (about one document in six), 'sourdough' less
 *   so (one in 33: too few among the newest for the first walk, found by the longer one), 'zymurgy'
 *   rare (one post in 10,000). Visibility: 2% members, 1% admins, the rest public.
 * - Comments k = 1…1,000,000, five a post, newer than their post; comments_count kept.
 */
import type pg from "pg";

export const SEARCH_DATASET = {
  name: "search",
  /** Bump when the generated rows change (the key also covers this file and the migrations). */
  version: 1,
  posts: 200_000,
  commentsPerPost: 5,
  members: 1_000,
  communitySlug: "bench-search",
} as const;

export type SearchDatasetFacts = {
  communityId: string;
  dataSeconds: number;
  indexSeconds: number;
  documents: number;
  tableSize: string;
  indexesSize: string;
};

const D = SEARCH_DATASET;

/** SQL for the id of member n (an SQL expression). */
export const searchUserId = (n: string) => `md5('hearth-bench-search-user-' || ${n})`;
const postId = (n: string) => `md5('hearth-bench-search-post-' || ${n})::uuid`;

/** Sentences in the eight profile languages (the benchmark's posts repeat them too). */
export const SEARCH_SENTENCES = [
  "Pulled my best bread yet out of the oven this morning and the crumb is finally open.",
  "Sharing my notes from this week's live call: starter care, timing and shaping.",
  "Has anyone tried a longer cold retard with a high hydration dough?",
  "The trick that helped me most was watching the dough, not the clock.",
  "As comunidades do bairro organizaram uma feira de pão caseiro.",
  "La comunidad celebra su aniversario con música y pan recién horneado.",
  "Les élèves préparent un spectacle pour l'école du quartier.",
  "Die Häuser am Fluss wurden letztes Jahr renoviert und riechen nach Brot.",
  "Abbiamo mangiato una pizza napoletana deliziosa con gli amici.",
  "東京都の図書館でパン作りの勉強会を開きました。",
  "我们在北京大学举办了一次关于面包的读书会。",
  "Small win today: I kept my starter alive through a whole week of travel.",
];
const sqlArray = (xs: string[]) => `ARRAY[${xs.map((s) => `'${s.replaceAll("'", "''")}'`).join(", ")}]`;
/** Sentence i of row n (two sentences a row), by a hash of the row so languages mix. */
const text = (n: string, salt: number) =>
  `(${sqlArray(SEARCH_SENTENCES)})[1 + abs(hashtext(${n} || '-${salt}')) % ${SEARCH_SENTENCES.length}] || ' ' || ` +
  `(${sqlArray(SEARCH_SENTENCES)})[1 + abs(hashtext(${n} || '-${salt + 1}')) % ${SEARCH_SENTENCES.length}]`;

export async function buildSearchDataset(client: pg.Client, log: (line: string) => void): Promise<SearchDatasetFacts> {
  const t0 = performance.now();
  await client.query("BEGIN");
  try {
    await client.query(
      `INSERT INTO "user" (id, name, email, email_verified)
       SELECT ${searchUserId("n")}, 'Searcher ' || n, 'bench-search-' || n || '@bench.hearth.test', true
         FROM generate_series(1, $1::int) n`,
      [D.members],
    );
    await client.query(
      `INSERT INTO user_profiles (user_id, username, full_name)
       SELECT ${searchUserId("n")}, 'searcher' || n, 'Searcher ' || n FROM generate_series(1, $1::int) n`,
      [D.members],
    );
    const [{ id: communityId }] = (
      await client.query<{ id: string }>(
        `INSERT INTO communities (name, slug, description, category, type, price, creator_name, visibility,
           invite_code, created_by, onboarding_completed)
         SELECT 'Search Bakers', $1, 'A big community to search.', 'hobbies', 'free', 0, u.name, 'public',
                'benchSearch', u.id, true FROM "user" u WHERE u.id = ${searchUserId("1")} RETURNING id`,
        [D.communitySlug],
      )
    ).rows;
    await client.query(
      `INSERT INTO community_members (community_id, user_id, role)
       SELECT $1, ${searchUserId("n")}, CASE WHEN n = 1 THEN 'owner' ELSE 'member' END FROM generate_series(1, $2::int) n`,
      [communityId, D.members],
    );
    // The users, their profiles (member documents) and memberships went through their triggers; the
    // posts and comments skip them and are indexed below, set-based.
    await client.query("SET LOCAL session_replication_role = replica");
    await client.query(
      `INSERT INTO posts (id, community_id, author_id, content, visibility, created_at, updated_at)
       SELECT ${postId("n")}, $1, ${searchUserId("(1 + n % $2::int)")},
              ${text("n", 0)} || CASE WHEN n % 10000 = 7 THEN ' Notes on zymurgy.' ELSE '' END
                || CASE WHEN n % 33 = 5 THEN ' Sourdough again.' ELSE '' END,
              CASE WHEN n % 50 = 0 THEN 'members' WHEN n % 97 = 0 THEN 'admins' ELSE 'public' END,
              now() - make_interval(secs => n * 150), now()
         FROM generate_series(1, $3::int) n`,
      [communityId, D.members, D.posts],
    );
    await client.query(
      `INSERT INTO comments (post_id, author_id, content, created_at, updated_at)
       SELECT ${postId("(1 + k % $2::int)")}, ${searchUserId("(1 + k % $1::int)")},
              ${text("k", 5)} || CASE WHEN k % 33 = 5 THEN ' Sourdough again.' ELSE '' END,
              now() - make_interval(secs => (k % $2::int) * 150) + make_interval(secs => k / $2::int + 1), now()
         FROM generate_series(1, $3::int) k`,
      [D.members, D.posts, D.posts * D.commentsPerPost],
    );
    await client.query(
      `UPDATE posts p SET comments_count = c.n FROM (SELECT post_id, count(*)::int AS n FROM comments GROUP BY post_id) c
        WHERE c.post_id = p.id AND p.community_id = $1`,
      [communityId],
    );
    await client.query(`UPDATE communities SET post_count = $2 WHERE id = $1`, [communityId, D.posts]);
    await client.query("COMMIT");
    const dataSeconds = (performance.now() - t0) / 1000;
    log(`rows written: ${dataSeconds.toFixed(1)} s`);
    // Index what the triggers did not see, as migration 0025 leaves a large database to the server.
    const t1 = performance.now();
    await client.query(`UPDATE search_backfill SET done = false, last_id = ''`);
    for (const kind of ["post", "comment"]) await client.query(`SELECT hearth_search_backfill($1, 1000000000)`, [kind]);
    await client.query("VACUUM ANALYZE search_documents");
    await client.query("VACUUM ANALYZE posts");
    await client.query("VACUUM ANALYZE comments");
    const indexSeconds = (performance.now() - t1) / 1000;
    log(`indexed: ${indexSeconds.toFixed(1)} s`);
    const counts = (
      await client.query<{ docs: number; bytes: string; gin: string }>(
        `SELECT count(*)::int AS docs, pg_size_pretty(pg_table_size('search_documents')) AS bytes,
                pg_size_pretty(pg_indexes_size('search_documents')) AS gin FROM search_documents`,
      )
    ).rows[0];
    return {
      communityId,
      dataSeconds,
      indexSeconds,
      documents: counts.docs,
      tableSize: counts.bytes,
      indexesSize: counts.gin,
    };
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  }
}
