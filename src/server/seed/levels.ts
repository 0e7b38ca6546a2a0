import { sql } from "drizzle-orm";
import { joinRequests } from "#server/db/schema/index";
import { prng } from "./art";
import { insertMany, type DemoAccount, type Person, type SeededCommunity, type Tx } from "./communities";
import { DEMO_APPLICATIONS, LEVEL_LADDERS, REQUESTS_COMMUNITY } from "./content/levels.data";

/**
 * Levels and join requests in the demo (issue 20). Points are never written here: they are likes,
 * and member_points is computed from the like rows. A few communities get a ladder of well-liked
 * members (LEVEL_LADDERS): each one's likes are topped up by other members liking their posts and
 * comments there, in one INSERT … SELECT per kind. Studio Insiders takes requests, with a few
 * people waiting for owner@hearth.test's answer.
 */

export type LevelSeedResult = { likes: number; requests: number };

const HOUR = 60 * 60 * 1000;

export async function seedLevels(input: {
  tx: Tx;
  seeded: SeededCommunity[];
  people: Person[];
  accounts: Record<DemoAccount, { id: string }>;
  now: number;
}): Promise<LevelSeedResult> {
  const likes = await seedLadders(input);
  await countPoints(input.tx);
  const requests = await seedJoinRequests(input);
  return { likes, requests };
}

/**
 * The likes that lift each ladder's members to their points, in a few set-based statements:
 * rank the members who wrote something there by the likes they have, then give each one the
 * missing likes round their posts and comments (every item's first new liker, then every item's
 * second…). Likers are the community's other members (not guests, not the demo accounts), taken in
 * an order fixed by their usernames with a different starting point per item, so the same people
 * like the same things on every start. The like counters are set from the rows afterwards.
 */
async function seedLadders(input: {
  tx: Tx;
  seeded: SeededCommunity[];
  accounts: Record<DemoAccount, { id: string }>;
  now: number;
}): Promise<number> {
  const { tx, seeded, accounts, now } = input;
  const ids: string[] = [];
  const ranks: number[] = [];
  const points: number[] = [];
  for (const [slug, ladder] of Object.entries(LEVEL_LADDERS)) {
    const c = seeded.find((s) => s.slug === slug);
    if (!c) throw new Error(`No demo community ${slug} for its level ladder`);
    ladder.forEach((p, i) => {
      ids.push(c.id);
      ranks.push(i + 1);
      points.push(p);
    });
  }
  const demo = sql`${sql.param([accounts.owner.id, accounts.member.id])}::text[]`;
  // What each member wrote that every member there can see and like.
  await tx.execute(sql`
    CREATE TEMP TABLE seed_ladder_items ON COMMIT DROP AS
    SELECT p.community_id, p.author_id AS user_id, 'post' AS kind, p.id, p.created_at
      FROM posts p
     WHERE p.community_id = ANY (${sql.param(ids)}::uuid[])
       AND p.is_approved AND p.deleted_at IS NULL AND p.visibility <> 'admins'
    UNION ALL
    SELECT p.community_id, c.author_id, 'comment', c.id, c.created_at
      FROM comments c JOIN posts p ON p.id = c.post_id
     WHERE p.community_id = ANY (${sql.param(ids)}::uuid[])
       AND p.is_approved AND p.deleted_at IS NULL AND c.deleted_at IS NULL AND p.visibility <> 'admins'`);
  // Who is short of their rung, and by how many likes.
  await tx.execute(sql`
    CREATE TEMP TABLE seed_ladder_wanted ON COMMIT DROP AS
    WITH ladder AS (
      SELECT * FROM unnest(${sql.param(ids)}::uuid[], ${sql.param(ranks)}::int[], ${sql.param(points)}::int[])
        AS t(community_id, rank, points)
    ),
    received AS (
      SELECT i.community_id, i.user_id, count(l.user_id)::int AS points
        FROM seed_ladder_items i
        LEFT JOIN post_likes l ON i.kind = 'post' AND l.post_id = i.id AND l.user_id <> i.user_id
       GROUP BY 1, 2
      UNION ALL
      SELECT i.community_id, i.user_id, count(l.user_id)::int
        FROM seed_ladder_items i
        JOIN comment_likes l ON i.kind = 'comment' AND l.comment_id = i.id AND l.user_id <> i.user_id
       GROUP BY 1, 2
    ),
    ranked AS (
      SELECT r.community_id, r.user_id, sum(r.points)::int AS points,
             row_number() OVER (PARTITION BY r.community_id ORDER BY sum(r.points) DESC, pr.username) AS rank
        FROM received r JOIN user_profiles pr ON pr.user_id = r.user_id
       WHERE r.user_id <> ALL (${demo})
       GROUP BY r.community_id, r.user_id, pr.username
    )
    SELECT r.community_id, r.user_id, l.points - r.points AS extra
      FROM ranked r JOIN ladder l ON l.community_id = r.community_id AND l.rank = r.rank
     WHERE l.points > r.points`);
  await tx.execute(sql`
    CREATE TEMP TABLE seed_ladder_likes ON COMMIT DROP AS
    WITH pool AS (
      SELECT m.community_id, m.user_id, m.joined_at,
             row_number() OVER (PARTITION BY m.community_id ORDER BY md5(pr.username), pr.username) - 1 AS pos,
             count(*) OVER (PARTITION BY m.community_id) AS size
        FROM community_members m JOIN user_profiles pr ON pr.user_id = m.user_id
       WHERE m.community_id IN (SELECT community_id FROM seed_ladder_wanted)
         AND m.role <> 'guest' AND m.user_id <> ALL (${demo})
    ),
    sizes AS (SELECT DISTINCT community_id, size FROM pool),
    items AS (
      SELECT w.community_id, w.user_id AS author, w.extra, i.kind, i.id, i.created_at, s.size,
             row_number() OVER (PARTITION BY w.community_id, w.user_id ORDER BY i.created_at, i.kind, i.id) - 1 AS j,
             count(*) OVER (PARTITION BY w.community_id, w.user_id) AS n
        FROM seed_ladder_wanted w
        JOIN seed_ladder_items i ON i.community_id = w.community_id AND i.user_id = w.user_id
        JOIN sizes s ON s.community_id = w.community_id
    ),
    -- Twice the likes each item needs (and ten more): room for the author and those who already like it.
    slots AS (
      SELECT i.*, s.slot, (i.j * 7919 + s.slot) % i.size AS pos
        FROM items i
       CROSS JOIN LATERAL generate_series(0, least(i.size, 2 * ceil(i.extra::numeric / i.n)::int + 10) - 1) AS s(slot)
    ),
    candidates AS (
      SELECT s.community_id, s.author, s.extra, s.kind, s.id, s.j, s.slot, p.user_id,
             greatest(s.created_at, p.joined_at) AS since
        FROM slots s JOIN pool p ON p.community_id = s.community_id AND p.pos = s.pos
       WHERE p.user_id <> s.author
         AND NOT EXISTS (SELECT 1 FROM post_likes l WHERE s.kind = 'post' AND l.post_id = s.id AND l.user_id = p.user_id)
         AND NOT EXISTS (SELECT 1 FROM comment_likes l WHERE s.kind = 'comment' AND l.comment_id = s.id AND l.user_id = p.user_id)
    ),
    picked AS (
      SELECT *, row_number() OVER (PARTITION BY community_id, author ORDER BY slot, j) AS k FROM candidates
    )
    -- Within a day or so of what they like (or of joining), never in the last minute.
    SELECT kind, id, user_id,
           greatest(since, least(since + make_interval(mins => (3 + (k * 37) % 1500)::int),
                                 to_timestamp(${now / 1000}) - interval '1 minute')) AS created_at
      FROM picked WHERE k <= extra`);
  // The like counters are set from the rows below and the points counted once all likes are in.
  const [posted, commented] = await withoutRowTriggers(tx, async () => [
    await tx.execute(sql`
      INSERT INTO post_likes (post_id, user_id, created_at)
      SELECT id, user_id, created_at FROM seed_ladder_likes WHERE kind = 'post'`),
    await tx.execute(sql`
      INSERT INTO comment_likes (comment_id, user_id, created_at)
      SELECT id, user_id, created_at FROM seed_ladder_likes WHERE kind = 'comment'`),
  ]);
  await tx.execute(sql`
    UPDATE posts p SET likes_count = (SELECT count(*) FROM post_likes l WHERE l.post_id = p.id)
     WHERE p.id IN (SELECT id FROM seed_ladder_likes WHERE kind = 'post')`);
  await tx.execute(sql`
    UPDATE comments c SET likes_count = (SELECT count(*) FROM comment_likes l WHERE l.comment_id = c.id)
     WHERE c.id IN (SELECT id FROM seed_ladder_likes WHERE kind = 'comment')`);
  await tx.execute(sql`DROP TABLE seed_ladder_items, seed_ladder_wanted, seed_ladder_likes`);
  return (posted.rowCount ?? 0) + (commented.rowCount ?? 0);
}

/**
 * Every author's points from the likes they received, once all the demo's likes are in. The seed
 * inserts its likes with the row triggers skipped (posts.ts, above), so the points triggers of
 * migration 0023 did not count them, and its backfill ran on the empty database: this is that
 * backfill's count, run once more over the seeded rows, in one statement. Levels reached here are
 * not announced (top_level is the level). Lessons completed later in the seed count through the
 * triggers as usual.
 */
async function countPoints(tx: Tx) {
  // Points and level are computed here as the member_points trigger would (hearth_level_of), so
  // the trigger is skipped with the others when the role allows: one statement, not a trigger call
  // and a feed announcement per member.
  await withoutRowTriggers(tx, () =>
    tx.execute(sql`
    WITH likes AS (
      SELECT p.community_id, p.author_id AS user_id, count(*)::int AS n
        FROM post_likes l JOIN posts p ON p.id = l.post_id
       WHERE p.deleted_at IS NULL AND l.user_id <> p.author_id
         AND NOT EXISTS (SELECT 1 FROM community_bans b WHERE b.community_id = p.community_id AND b.user_id = l.user_id)
       GROUP BY 1, 2
      UNION ALL
      SELECT p.community_id, c.author_id, count(*)::int
        FROM comment_likes l JOIN comments c ON c.id = l.comment_id JOIN posts p ON p.id = c.post_id
       WHERE p.deleted_at IS NULL AND c.deleted_at IS NULL AND l.user_id <> c.author_id
         AND NOT EXISTS (SELECT 1 FROM community_bans b WHERE b.community_id = p.community_id AND b.user_id = l.user_id)
       GROUP BY 1, 2
    ),
    totals AS (SELECT community_id, user_id, sum(n)::int AS points FROM likes GROUP BY 1, 2)
    INSERT INTO member_points (community_id, user_id, like_points, points, level, top_level)
    SELECT t.community_id, t.user_id, t.points, t.points,
           hearth_level_of(t.points, c.level_thresholds), hearth_level_of(t.points, c.level_thresholds)
      FROM totals t JOIN communities c ON c.id = t.community_id
    ON CONFLICT (community_id, user_id) DO NOTHING`),
  );
}

/**
 * Runs bulk inserts with row triggers skipped, as posts.ts does for its likes, when the role allows
 * (session_replication_role = replica, a superuser only; foreign keys are not checked either: every
 * id comes from rows this seed just inserted). Any other role runs the triggers.
 */
async function withoutRowTriggers<T>(tx: Tx, run: () => Promise<T>): Promise<T> {
  const { rows } = await tx.execute<{ superuser: boolean }>(
    sql`select current_setting('is_superuser') = 'on' as superuser`,
  );
  const bypass = rows[0]?.superuser === true;
  if (bypass) await tx.execute(sql`set local session_replication_role = replica`);
  const result = await run();
  if (bypass) await tx.execute(sql`set local session_replication_role = origin`);
  return result;
}

/**
 * Studio Insiders (private) takes requests: a few people who are not members yet asked to join,
 * with their answers to its questions, over the last couple of days.
 */
async function seedJoinRequests(input: {
  tx: Tx;
  seeded: SeededCommunity[];
  people: Person[];
  accounts: Record<DemoAccount, { id: string }>;
  now: number;
}): Promise<number> {
  const { tx, seeded, people, accounts, now } = input;
  const c = seeded.find((s) => s.slug === REQUESTS_COMMUNITY);
  const questions = c?.def.requests?.questions;
  if (!c || !questions) throw new Error(`${REQUESTS_COMMUNITY} does not take requests`);
  const members = new Set(c.members.map((m) => m.userId));
  const rand = prng(0x1e7e15);
  const outsiders = people.filter((p) => !members.has(p.id) && p.id !== accounts.member.id);
  const applicants: Person[] = [];
  while (applicants.length < DEMO_APPLICATIONS.length) {
    const p = outsiders[Math.floor(rand() * outsiders.length)];
    if (!applicants.includes(p)) applicants.push(p);
  }
  const answers = DEMO_APPLICATIONS.map((a) => questions.map((question, i) => ({ question, answer: a.answers[i] })));
  await insertMany(tx, joinRequests, [
    [joinRequests.communityId, applicants.map(() => c.id)],
    [joinRequests.userId, applicants.map((p) => p.id)],
    [joinRequests.status, applicants.map(() => "pending")],
    [joinRequests.answers, answers.map((a) => JSON.stringify(a))],
    [joinRequests.createdAt, DEMO_APPLICATIONS.map((a) => new Date(now - a.hoursAgo * HOUR))],
  ]);
  return applicants.length;
}
