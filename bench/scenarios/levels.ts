/**
 * Issue 20 "Levels", Benchmark: the all-time leaderboard with levels (top 10, the viewer's rank and
 * level, the level ladder) of a community of 20,000 members and 1,000,000 likes, under 20 ms server
 * p95 at 50 connections, as a ratio to a bare node:http server answering the same bytes; and a like
 * toggle's throughput with the points triggers against the same toggles with the trigger disabled,
 * side by side in the same process (goal: within 10%). The data is made with set-based SQL.
 */
import os from "node:os";
import type autocannon from "autocannon";
import pg from "pg";
import { levelOf } from "../../src/shared/levels";
import { databaseUrl, serverLatencyProbe, startBaseline, startHearth } from "../lib/children";
import { compareEndpoint } from "../lib/endpoint";
import { int, pct } from "../lib/format";
import { fetchFixed } from "../lib/hearth-client";
import { measure, median, type LoadResult } from "../lib/load";
import type { ResultRow, Scenario } from "../lib/scenario";
import { authSecretOf, insertSessions } from "../lib/sessions";

const CONNECTIONS = 50;
const SERVER_P95_GOAL_MS = 20;
const MEMBERS = 20_000;
const POSTS = 50_000;
const LIKES_PER_POST = 20; // 1,000,000 likes
const SLUG = "bench-levels";
const LIMIT = 10; // what the Leaderboards tab asks
const TOGGLE_ROUNDS = 2; // per variant, alternating
const TOGGLE_GOAL = 0.9;

const userId = (n: string) => `md5('hearth-bench-levels-user-' || ${n})`;

export const levels: Scenario = {
  name: "levels",
  title: "Levels: the leaderboard with levels of 20,000 members and 1,000,000 likes, like toggles with points kept",
  async run(opts) {
    const rows: ResultRow[] = [];
    const details: string[] = [];
    const checks: string[] = [];
    const hearth = await startHearth({
      name: "levels",
      nodeArgs: opts.serverNodeArgs,
      serverLatency: true,
      sqlCount: true,
    });
    const pool = new pg.Pool({ connectionString: await databaseUrl(hearth), max: 2 });
    // An idle connection closed when the server stops is not a failure of the run.
    pool.on("error", () => {});
    let seedSeconds: number;
    let toggleNotes: string[];
    try {
      const url = hearth.url;
      const owner = (await pool.query<{ id: string }>(`SELECT id FROM "user" WHERE email = 'owner@hearth.test'`))
        .rows[0].id;
      const t0 = performance.now();
      const [{ id: communityId }] = (
        await pool.query<{ id: string }>(
          `INSERT INTO communities (name, slug, description, category, type, price, creator_name, visibility,
             invite_code, created_by, onboarding_completed)
           SELECT 'Level Climbers', '${SLUG}', 'A big community with levels.', 'marketing', 'free', 0, o.name, 'public',
                  'benchLevels', o.id, true
             FROM "user" o WHERE o.id = $1
           RETURNING id`,
          [owner],
        )
      ).rows;
      await pool.query(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, 'owner')`, [
        communityId,
        owner,
      ]);
      await pool.query(
        `INSERT INTO "user" (id, name, email, email_verified)
         SELECT ${userId("n")}, 'Climber ' || n, 'bench-levels-' || n || '@bench.hearth.test', true
           FROM generate_series(1, $1::int) n`,
        [MEMBERS],
      );
      await pool.query(
        `INSERT INTO user_profiles (user_id, username, full_name)
         SELECT ${userId("n")}, 'climber' || n, 'Climber ' || n FROM generate_series(1, $1::int) n`,
        [MEMBERS],
      );
      await pool.query(
        `INSERT INTO community_members (community_id, user_id, role)
         SELECT $1, ${userId("n")}, 'member' FROM generate_series(1, $2::int) n`,
        [communityId, MEMBERS],
      );
      // Posts and likes without row triggers (session_replication_role): counters and points are
      // then computed set-based, as migration 0023's backfill does.
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query("SET LOCAL session_replication_role = replica");
        // Authors skewed: a few write a lot (cube of a uniform draw), so points spread over the levels.
        await client.query(
          `INSERT INTO posts (id, community_id, author_id, content, created_at)
           SELECT md5('hearth-bench-levels-post-' || n)::uuid, $1,
                  ${userId("(1 + floor(($2::int - 1) * power(n::float / $3::int, 3)))::int")},
                  'Post number ' || n, now() - make_interval(mins => n)
             FROM generate_series(1, $3::int) n`,
          [communityId, MEMBERS, POSTS],
        );
        await client.query(
          `INSERT INTO post_likes (post_id, user_id, created_at)
           SELECT md5('hearth-bench-levels-post-' || n)::uuid,
                  ${userId("(1 + (n * 7919 + j * 104729) % $2::int)")},
                  now() - make_interval(mins => (n * 13 + j) % 86400)
             FROM generate_series(1, $1::int) n CROSS JOIN generate_series(1, $3::int) j`,
          [POSTS, MEMBERS, LIKES_PER_POST],
        );
        await client.query(
          `UPDATE posts p SET likes_count = c.n
             FROM (SELECT post_id, count(*)::int AS n FROM post_likes GROUP BY post_id) c
            WHERE c.post_id = p.id AND p.community_id = $1`,
          [communityId],
        );
        await client.query(`UPDATE communities SET post_count = $2 WHERE id = $1`, [communityId, POSTS]);
        await client.query(
          `INSERT INTO member_points (community_id, user_id, like_points, points, level, top_level)
           SELECT $1, x.user_id, x.n, x.n, hearth_level_of(x.n, c.level_thresholds), hearth_level_of(x.n, c.level_thresholds)
             FROM (SELECT p.author_id AS user_id, count(*)::int AS n
                     FROM post_likes l JOIN posts p ON p.id = l.post_id
                    WHERE p.community_id = $1 AND l.user_id <> p.author_id
                    GROUP BY p.author_id) x
             JOIN communities c ON c.id = $1`,
          [communityId],
        );
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.release();
      }
      await pool.query("ANALYZE posts; ANALYZE post_likes; ANALYZE member_points; ANALYZE community_members");
      seedSeconds = (performance.now() - t0) / 1000;
      const facts = (
        await pool.query<{ likes: number; ranked: number; top: number }>(
          `SELECT (SELECT count(*) FROM post_likes l JOIN posts p ON p.id = l.post_id WHERE p.community_id = $1)::int AS likes,
                  (SELECT count(*) FROM member_points WHERE community_id = $1 AND points > 0)::int AS ranked,
                  (SELECT max(points) FROM member_points WHERE community_id = $1)::int AS top`,
          [communityId],
        )
      ).rows[0];
      console.error(
        `  [levels data] ${int(MEMBERS)} members, ${int(POSTS)} posts, ${int(facts.likes)} likes, ` +
          `${int(facts.ranked)} with points, in ${seedSeconds.toFixed(1)} s`,
      );

      // The viewer: a member in the middle of the ranking (their rank is counted, not in the top 10).
      const viewer = (
        await pool.query<{ user_id: string; points: number }>(
          `SELECT user_id, points FROM member_points WHERE community_id = $1 AND points > 0
            ORDER BY points DESC, user_id OFFSET $2 LIMIT 1`,
          [communityId, Math.floor(facts.ranked / 2)],
        )
      ).rows[0];
      const secret = authSecretOf(hearth.dataDir);
      const [viewerCookie] = await insertSessions(pool, secret, [viewer.user_id]);
      const path = `/api/communities/${SLUG}/leaderboard?period=all&limit=${LIMIT}`;
      const board = await fetchFixed(`${url}${path}`, { cookie: viewerCookie });
      const answer = JSON.parse(board.body.toString()) as {
        items: { user_id: string; points: number; level: number; rank: number }[];
        viewer: { user_id: string; points: number; rank: number } | null;
        ladder: { level: number; members: number; share: number }[];
        viewer_level: { points: number; level: number } | null;
      };
      const expected = (
        await pool.query<{ user_id: string; points: number; rank: number }>(
          `SELECT user_id, points, rank() OVER (ORDER BY points DESC)::int AS rank FROM member_points
            WHERE community_id = $1 ORDER BY points DESC, user_id LIMIT $2`,
          [communityId, LIMIT],
        )
      ).rows;
      const [{ above }] = (
        await pool.query<{ above: number }>(
          `SELECT count(*)::int AS above FROM member_points WHERE community_id = $1 AND points > $2`,
          [communityId, viewer.points],
        )
      ).rows;
      const ladderTotal = answer.ladder.reduce((n, r) => n + r.members, 0);
      if (
        JSON.stringify(answer.items.map((i) => [i.points, i.rank])) !==
          JSON.stringify(expected.map((e) => [e.points, e.rank])) ||
        answer.items.some((i) => i.level !== levelOf(i.points)) ||
        answer.viewer?.user_id !== viewer.user_id ||
        answer.viewer.rank !== above + 1 ||
        answer.viewer_level?.points !== viewer.points ||
        ladderTotal !== MEMBERS + 1
      )
        throw new Error(`the leaderboard answered ${board.body.toString().slice(0, 600)}`);
      checks.push(
        `the top ${LIMIT} are the ${LIMIT} highest of member_points with their ranks and levels (top ${int(facts.top)} ` +
          `points), the viewer (${int(viewer.points)} points) is ranked ${int(above + 1)} (members with more points, plus one), ` +
          `and the ladder counts all ${int(ladderTotal)} members (${answer.ladder.map((r) => `L${r.level} ${pct(r.share / 100)}`).join(", ")})`,
      );

      const baseline = await startBaseline("levels", { [path]: board });
      try {
        const request = { headers: { cookie: viewerCookie }, expectBody: board.body.toString() };
        const { row, detail } = await compareEndpoint({
          endpoint: `GET …/leaderboard?period=all (top ${LIMIT}, viewer's rank, ladder; signed in)`,
          connections: CONNECTIONS,
          hearth,
          hearthRequest: { ...request, url: `${url}${path}` },
          baseline,
          baselineRequest: { ...request, url: `${baseline.url}${path}` },
          responseBytes: board.body.length,
          opts,
          row: { serverP95GoalMs: SERVER_P95_GOAL_MS },
        });
        rows.push(row);
        details.push(detail);
      } finally {
        await baseline.stop();
      }

      toggleNotes = await measureToggles({ url, pool, hearth, communityId, secret, rows, opts });
    } finally {
      await pool.end().catch(() => {});
      await hearth.stop();
    }
    return {
      rows,
      notes: [
        `Goal (issue 20): the leaderboard with levels of a community of ${int(MEMBERS)} members and 1,000,000 likes under ` +
          `${SERVER_P95_GOAL_MS} ms server p95 at ${CONNECTIONS} connections, as a ratio to a bare \`node:http\` server ` +
          `answering the same bytes; a like toggle with points kept within 10% of the toggle without them.`,
        `Data (set-based SQL, ${seedSeconds.toFixed(1)} s): ${int(MEMBERS)} members of one public community, ${int(POSTS)} ` +
          `posts by authors drawn skewed (a few write many), ${int(MEMBERS > 0 ? POSTS * LIKES_PER_POST : 0)} likes ` +
          `(${LIKES_PER_POST} a post, from members spread evenly), inserted with row triggers off and then counted ` +
          `set-based into likes_count and member_points as migration 0023's backfill does.`,
        `Responses checked before measuring: ${checks.join("; ")}.`,
        `How it was measured: as in the Calendar section (production config, rate limits off, ${os.cpus().length} cores ` +
          `shared with the load generator; ${opts.warmupSeconds} s warm-up, ${opts.seconds} s measured, ${opts.rounds} ` +
          `alternating rounds with the baseline; every body compared byte for byte; server p95 inside the Hearth process). ` +
          `The leaderboard is asked as the Leaderboards tab asks (all time, ${LIMIT} entries) by a member ranked in the ` +
          `middle, so their rank is counted rather than found in the top list.`,
        ...toggleNotes,
        `Per row:`,
        details.join("\n"),
      ],
    };
  },
};

/**
 * Like toggles at 50 connections, each its own member toggling 50 posts by 50 different authors in
 * turn, with the points trigger on and off (ALTER TABLE … DISABLE TRIGGER post_likes_points),
 * alternating rounds; the points of the toggled authors are recounted after each 'off' round, and
 * must equal the recount after the last 'on' round.
 */
async function measureToggles(input: {
  url: string;
  pool: pg.Pool;
  hearth: Awaited<ReturnType<typeof startHearth>>;
  communityId: string;
  secret: string;
  rows: ResultRow[];
  opts: Parameters<Scenario["run"]>[0];
}): Promise<string[]> {
  const { url, pool, hearth, communityId, secret, rows, opts } = input;
  const posts = (
    await pool.query<{ id: string; author_id: string }>(
      `SELECT DISTINCT ON (author_id) id, author_id FROM posts WHERE community_id = $1 ORDER BY author_id, created_at DESC LIMIT $2`,
      [communityId, CONNECTIONS],
    )
  ).rows;
  const likers = (
    await pool.query<{ user_id: string }>(
      `SELECT user_id FROM community_members WHERE community_id = $1 AND role = 'member'
        AND user_id <> ALL($2::text[]) ORDER BY user_id LIMIT $3`,
      [communityId, posts.map((p) => p.author_id), CONNECTIONS],
    )
  ).rows.map((r) => r.user_id);
  const cookies = await insertSessions(pool, secret, likers);
  const postIds = posts.map((p) => p.id);
  const authors = posts.map((p) => p.author_id);
  const recount = `
    SELECT mp.user_id, mp.like_points, (SELECT count(*)::int FROM post_likes l JOIN posts p ON p.id = l.post_id
                                         WHERE p.community_id = $1 AND p.author_id = mp.user_id AND p.deleted_at IS NULL
                                           AND l.user_id <> p.author_id) AS n
      FROM member_points mp WHERE mp.community_id = $1 AND mp.user_id = ANY($2::text[])`;
  const resync = () =>
    pool.query(
      `UPDATE member_points mp SET like_points = x.n
         FROM (${recount}) x WHERE mp.community_id = $1 AND mp.user_id = x.user_id AND x.like_points <> x.n`,
      [communityId, authors],
    );
  let opened = 0;
  const setupClient = (client: autocannon.Client) => {
    const index = opened++ % cookies.length;
    let k = 0;
    client.setRequests([
      {
        method: "POST",
        setupRequest: (req) => ({
          ...req,
          method: "POST",
          path: `/api/posts/${postIds[(index + k++) % postIds.length]}/like`,
          headers: { cookie: cookies[index], origin: url },
        }),
      },
    ]);
  };
  const request = {
    url: `${url}/api/posts/${postIds[0]}/like`,
    method: "POST" as const,
    connections: CONNECTIONS,
    setupClient,
  };
  const results: Record<"on" | "off", LoadResult[]> = { on: [], off: [] };
  for (let round = 0; round < TOGGLE_ROUNDS; round++) {
    for (const variant of ["off", "on"] as const) {
      await pool.query(`ALTER TABLE post_likes ${variant === "on" ? "ENABLE" : "DISABLE"} TRIGGER post_likes_points`);
      const r = await measure(
        `POST /api/posts/:id/like (points ${variant}, round ${round + 1})`,
        { ...request, serverPid: hearth.pid, serverLatency: serverLatencyProbe(hearth) },
        { seconds: opts.seconds, warmupSeconds: opts.warmupSeconds },
      );
      results[variant].push(r);
      console.error(
        `  like toggles, points ${variant}: ${r.requestsPerSecond.toFixed(0)}/s, server p95 ${r.server?.p95} ms`,
      );
      if (variant === "off") await resync();
    }
  }
  await pool.query(`ALTER TABLE post_likes ENABLE TRIGGER post_likes_points`);
  const wrong = (
    await pool.query<{ user_id: string; like_points: number; n: number }>(recount, [communityId, authors])
  ).rows.filter((r) => r.like_points !== r.n);
  if (wrong.length) throw new Error(`points differ from the recount for ${wrong.length} authors after the toggles`);
  const on = median(results.on.map((r) => r.requestsPerSecond));
  const off = median(results.off.map((r) => r.requestsPerSecond));
  const pick = (variant: "on" | "off", rps: number) =>
    results[variant].find((r) => r.requestsPerSecond === rps) ?? results[variant][0];
  const onRun = pick("on", on);
  const offRun = pick("off", off);
  const endpoint = `POST /api/posts/:id/like (points kept, ${CONNECTIONS} users × ${CONNECTIONS} authors)`;
  rows.push({
    endpoint,
    connections: CONNECTIONS,
    requestsPerSecond: on,
    p50: onRun.p50,
    p99: onRun.p99,
    non2xx: results.on.reduce((n, r) => n + r.non2xx, 0),
    errors: results.on.reduce((n, r) => n + r.errors, 0),
    reference: { label: "same toggles, points trigger off", requestsPerSecond: off },
    goal: TOGGLE_GOAL,
    serverP95: onRun.server?.p95,
  });
  return [
    `Like toggles: ${CONNECTIONS} connections, each signed in as its own member, toggling ${postIds.length} posts by ` +
      `${postIds.length} different authors in turn; ${TOGGLE_ROUNDS} rounds each with the points trigger on and off ` +
      `(\`ALTER TABLE post_likes DISABLE TRIGGER post_likes_points\`, the same server process and data), alternating, ` +
      `medians kept: ${int(on)}/s with points kept, ${int(off)}/s without (${pct(on / off)}; by round: on ` +
      `${results.on.map((r) => int(r.requestsPerSecond)).join(", ")}, off ${results.off.map((r) => int(r.requestsPerSecond)).join(", ")}). ` +
      `Server p95 ${onRun.server?.p95} ms with points, ${offRun.server?.p95} ms without. The toggled authors' ` +
      `like_points were recounted after each 'off' round and equalled the recount after the last 'on' round.`,
  ];
}
