/**
 * Issue "Courses": a course of 20 modules × 50 lessons (with resources) loads in at most 3 SQL
 * statements with a server p95 under 30 ms. GET /api/courses/:id signed in as a member with 300
 * completions, and the Courses tab (GET /api/communities/:id/courses), each at 50 connections and
 * at one, against a bare node:http server answering the same bytes, with the SQL statements of each
 * request counted inside the server. The data (bench/datasets/courses.ts) is made with set-based
 * SQL on the benchmark's own Hearth database right after it starts with the demo seed.
 */
import os from "node:os";
import { gzipSync } from "node:zlib";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { COURSE_ACCESS_SQL, COURSE_MODULES_SQL } from "../../src/server/features/courses/courses.access";
import { BIG_COURSE_ID, buildCoursesBench, COURSES_BENCH, type CoursesBenchFacts } from "../datasets/courses";
import {
  databaseUrl,
  serverLatencyProbe,
  sqlCounter,
  startBaseline,
  startHearth,
  type FixedResponse,
  sqlDistribution as distribution,
  sqlOf,
} from "../lib/children";
import { fetchFixed, signIn } from "../lib/hearth-client";
import { compare, serverP95Of, type ComparisonRounds } from "../lib/load";
import type { ResultRow, Scenario } from "../lib/scenario";
import { cores, int, pct } from "../lib/format";

const B = COURSES_BENCH;
const CONNECTIONS = 50;
const SERVER_P95_GOAL_MS = 30;
const SQL_GOAL = 3;
const VIEWER = { email: "member@hearth.test", password: "hearth-demo" };

type Lesson = {
  id: string;
  module_id: string;
  order_index: number;
  video_url: string | null;
  resources: { title: string; url: string }[];
  completed: boolean;
  locked: boolean;
};
type Detail = {
  course: { id: string; lessons_count: number; completed_count: number; progress: number; has_access: boolean };
  modules: { id: string; order_index: number; lessons: Lesson[] }[];
};
type Card = { id: string; status: string; lessons_count: number; completed_count: number; progress: number };

const json = <T>(r: FixedResponse) => JSON.parse(r.body.toString()) as T;

/** EXPLAIN (ANALYZE, BUFFERS) a few times; the plan of the last run and the median execution time. */
async function explain(db: pg.Client, sql: string, params: unknown[]) {
  const times: number[] = [];
  let plan = "";
  for (let i = 0; i < 7; i++) {
    const res = await db.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    plan = res.rows.map((r) => r["QUERY PLAN"]).join("\n");
    const m = /Execution Time: ([\d.]+) ms/.exec(plan);
    if (m) times.push(Number(m[1]));
  }
  times.sort((a, b) => a - b);
  return { plan, medianMs: times[Math.floor(times.length / 2)] };
}

export const courses: Scenario = {
  name: "courses",
  title: "Courses: one course of 20 modules × 50 lessons, and the Courses tab",
  async run(opts) {
    const rows: ResultRow[] = [];
    const details: string[] = [];
    const checks: string[] = [];
    const explained: string[] = [];
    let facts: CoursesBenchFacts;

    const t0 = performance.now();
    const hearth = await startHearth({
      name: "courses",
      nodeArgs: opts.serverNodeArgs,
      serverLatency: true,
      sqlCount: true,
    });
    const startSeconds = (performance.now() - t0) / 1000;
    const db = new pg.Client({ connectionString: await databaseUrl(hearth) });
    await db.connect();
    try {
      const url = hearth.url;
      const id = async (email: string) =>
        (await db.query<{ id: string }>('SELECT id FROM "user" WHERE email = $1', [email])).rows[0].id;
      const ownerId = await id("owner@hearth.test");
      const viewerId = await id(VIEWER.email);
      facts = await buildCoursesBench(db, { ownerId, memberId: viewerId }, (line) =>
        console.error(`  [courses data] ${line}`),
      );
      const courseId = (await db.query<{ id: string }>(`SELECT ${BIG_COURSE_ID}::text AS id`)).rows[0].id;
      const cookie = await signIn(url, VIEWER);
      const signedIn = { cookie };
      const detailPath = `/api/courses/${courseId}`;
      const listPath = `/api/communities/${B.communitySlug}/courses`;

      // What each request must answer, checked once here; under load every body must be these bytes.
      const detailFixed = await fetchFixed(`${url}${detailPath}`, signedIn);
      const detail = json<Detail>(detailFixed);
      const lessons = detail.modules.flatMap((m) => m.lessons);
      if (detail.modules.length !== B.modules || detail.modules.some((m) => m.lessons.length !== B.lessonsPerModule)) {
        throw new Error(
          `the course answers ${detail.modules.length} modules, not ${B.modules} × ${B.lessonsPerModule}`,
        );
      }
      if (
        detail.modules.some((m, i) => m.order_index !== i || m.lessons.some((l, k) => l.order_index !== k)) ||
        lessons.some((l, i) => l.module_id !== detail.modules[Math.floor(i / B.lessonsPerModule)].id)
      ) {
        throw new Error("modules or lessons are out of order");
      }
      const done = new Set(
        (
          await db.query<{ lesson_id: string }>(
            "SELECT lesson_id FROM lesson_completions WHERE user_id = $1 AND course_id = $2",
            [viewerId, courseId],
          )
        ).rows.map((r) => r.lesson_id),
      );
      const resources = lessons.reduce((n, l) => n + l.resources.length, 0);
      if (
        lessons.some((l) => l.completed !== done.has(l.id) || l.locked || !l.video_url) ||
        detail.course.completed_count !== B.viewerCompletions ||
        detail.course.lessons_count !== B.modules * B.lessonsPerModule ||
        detail.course.progress !== Math.round((B.viewerCompletions / (B.modules * B.lessonsPerModule)) * 100) ||
        resources !== facts.bigCourseResources
      ) {
        throw new Error("the course disagrees with the database (completions, access, videos or resources)");
      }
      checks.push(
        `the course answers ${B.modules} modules of ${B.lessonsPerModule} lessons in order, every lesson unlocked ` +
          `with its video and resources (${int(resources)} in all), and exactly the viewer's ${B.viewerCompletions} ` +
          `completions (progress ${detail.course.progress}%)`,
      );
      const listFixed = await fetchFixed(`${url}${listPath}`, signedIn);
      const cards = json<{ items: Card[] }>(listFixed).items;
      const big = cards.find((c) => c.id === courseId);
      if (
        cards.length !== B.otherCourses + 1 ||
        cards.some((c) => c.status !== "published") ||
        !big ||
        big.lessons_count !== B.modules * B.lessonsPerModule ||
        big.completed_count !== B.viewerCompletions
      ) {
        throw new Error(`the Courses tab answers ${JSON.stringify(cards.map((c) => [c.status, c.lessons_count]))}`);
      }
      checks.push(
        `the Courses tab answers the ${cards.length} published courses (not the draft) with the viewer's progress`,
      );

      const reads = [
        {
          endpoint: "GET /api/courses/:id (1,000 lessons, signed in)",
          path: detailPath,
          fixed: detailFixed,
          goals: true,
        },
        { endpoint: "GET …/courses (Courses tab, signed in)", path: listPath, fixed: listFixed, goals: false },
      ];
      const baseline = await startBaseline("courses", Object.fromEntries(reads.map((r) => [r.path, r.fixed])));
      try {
        for (const read of reads) {
          const body = read.fixed.body;
          for (const connections of [CONNECTIONS, 1]) {
            const request = { headers: signedIn, expectBody: body.toString(), connections };
            const label = `${read.endpoint}, ${connections} connection${connections > 1 ? "s" : ""}`;
            // With one connection each statement is charged to its request (exact only then).
            const c: ComparisonRounds = await compare(
              label,
              {
                hearth: {
                  ...request,
                  url: `${url}${read.path}`,
                  serverPid: hearth.pid,
                  serverLatency: serverLatencyProbe(hearth),
                  sqlCounter: sqlCounter(hearth, { attribute: connections === 1 }),
                },
                baseline: { ...request, url: `${baseline.url}${read.path}`, serverPid: baseline.pid },
              },
              opts,
            );
            const { requestsPerSecond, p50, p99, non2xx, errors, server, sqlCount } = c.hearth;
            const sql = connections === 1 ? sqlOf(sqlCount!) : undefined;
            console.error(
              `  ${label}: ${requestsPerSecond.toFixed(0)} req/s, server p50 ${server?.p50} ms, p95 ${server?.p95} ms` +
                (sql ? `; SQL ${distribution(sqlCount!)}` : ""),
            );
            rows.push({
              endpoint: read.endpoint,
              connections,
              requestsPerSecond,
              p50,
              p99,
              non2xx,
              errors,
              reference: { label: "bare node:http", requestsPerSecond: c.baseline.requestsPerSecond },
              serverP95: serverP95Of(c).p95,
              serverP95GoalMs: read.goals ? SERVER_P95_GOAL_MS : undefined,
              sql,
              sqlGoal: read.goals && sql ? SQL_GOAL : undefined,
              responseBytes: body.length,
            });
            details.push(
              `- ${label}: ${int(body.length)} bytes (${int(gzipSync(body).length)} gzipped, sent uncompressed); ` +
                (sql
                  ? `SQL ${distribution(sqlCount!)} (${int(sqlCount!.statements)} statements sent in the window, ` +
                    `${int(sqlCount!.charged)} charged to requests); `
                  : `${int(sqlCount!.statements)} statements for ${int(sqlCount!.requests)} requests ` +
                    `(${(sqlCount!.statements / sqlCount!.requests).toFixed(2)} each); `) +
                (server
                  ? `inside the server p50 ${server.p50} ms, p95 ${server.p95} ms, p99 ${server.p99} ms, ` +
                    `max ${server.max} ms over ${int(server.count)} requests; `
                  : "") +
                `the bare server's latency at the client p50 ${c.baseline.p50} ms, p99 ${c.baseline.p99} ms; ` +
                (c.rounds.length > 1 ? `ratio by round ${c.rounds.map((r) => pct(r.ratio)).join(", ")}; ` : "") +
                serverP95Of(c).note +
                `cores while measuring Hearth: ${cores(c.hearth)}; the baseline: ${cores(c.baseline)}.`,
            );
          }
        }
      } finally {
        await baseline.stop();
      }

      // Where the database time goes, on the same data, after the runs (warm cache).
      const courseStatement = await explain(db, COURSE_ACCESS_SQL, [courseId, viewerId]);
      const modulesStatement = await explain(db, COURSE_MODULES_SQL, [courseId, viewerId]);
      console.error(`  EXPLAIN ANALYZE, modules and lessons:\n${modulesStatement.plan}`);
      explained.push(
        `PostgreSQL's own time for the two statements (EXPLAIN ANALYZE on the same database after the runs, ` +
          `median of 7): the course with the viewer's role and purchase ${courseStatement.medianMs} ms, the modules ` +
          `with their lessons and the viewer's completions ${modulesStatement.medianMs} ms.`,
      );
    } finally {
      await db.end().catch(() => {});
      await hearth.stop();
    }

    const cpuCount = os.cpus().length;
    return {
      rows,
      notes: [
        `Goals (issue): a course of ${B.modules} modules × ${B.lessonsPerModule} lessons loads in at most ${SQL_GOAL} ` +
          `SQL statements per request with a server p95 under ${SERVER_P95_GOAL_MS} ms (checked on the course rows, ` +
          `at ${CONNECTIONS} connections and at one). The Courses tab and the ratios to the bare server have no goal.`,
        `Data (\`bench/datasets/courses.ts\`, made with set-based SQL in ${facts.buildSeconds.toFixed(1)} s on the ` +
          `benchmark's Hearth database after it started with the demo seed in ${startSeconds.toFixed(1)} s): a public ` +
          `community of ${int(facts.members)} members with ${facts.courses} courses (${int(facts.modules)} modules, ` +
          `${int(facts.lessons)} lessons); the measured course has ${int(facts.bigCourseLessons)} lessons with ` +
          `${int(facts.bigCourseResources)} resources and ${int(facts.completions)} completions by its members. The ` +
          `reader is member@hearth.test, a plain member with ${facts.viewerCompletions} completions in it. ` +
          `${B.filler.communities} other communities hold ${B.filler.communities * B.filler.coursesEach} more ` +
          `courses, so the database has ${int(facts.coursesEverywhere)} courses and ${int(facts.lessonsEverywhere)} ` +
          `lessons in all (the demo seed's included) and the planner reaches this course's rows through the indexes.`,
        `Responses checked before measuring: ${checks.join("; ")}.`,
        `How it was measured: as in the Posts section (Hearth with production config, bundled PostgreSQL and rate ` +
          `limits off, and a bare \`node:http\` server answering the same status, content type and body bytes, each ` +
          `in its own child process; autocannon in the harness on the same ${cpuCount} cores; ${opts.warmupSeconds} s ` +
          `warm-up then ${opts.seconds} s measured; baseline right before Hearth, ${opts.rounds} round` +
          `${opts.rounds > 1 ? "s, the round with the median ratio shown" : ""}; the same cookie sent to both; every ` +
          `body compared byte for byte), at ${CONNECTIONS} connections and at one. Server p95 is measured inside the ` +
          `Hearth process (Node's "request" event to the last byte handed to the socket), so at ${CONNECTIONS} ` +
          `connections it includes waiting behind the other connections' requests.`,
        `SQL/req counts every statement the Hearth process sends (node-postgres \`Client.prototype.query\` wrapped ` +
          `in \`bench/children/hearth-server.ts\`), charged to the request it runs for in the one-connection runs: ` +
          `the column shows what most requests made, and the highest count if any request made more. The session ` +
          `lookup is cached per process (30 s), so it rarely shows.`,
        `Per row (response size; SQL; latency inside the server; cores in use, PostgreSQL included in the server's):`,
        details.join("\n"),
        ...explained,
      ],
    };
  },
};
