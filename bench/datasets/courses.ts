/**
 * The courses data: one public community (`bench-courses`) with a published free course of 20
 * modules × 50 lessons (the course the issue names), nine smaller published courses and a draft, and
 * 2,000 other members part-way through the big course. Small enough (about 430,000 rows, a few
 * seconds) to be made with set-based SQL on the benchmark's own Hearth database right after it starts
 * with the demo seed, so the signed-in reader is the demo member (member@hearth.test, a plain member
 * here) and no prepared data directory is needed.
 *
 * Everything is deterministic (md5 of names and row numbers, hashint4, no random()):
 *
 * - The community: owned by owner@hearth.test; member@hearth.test and 2,000 users
 *   (bench-courses-<n>@bench.hearth.test, no credentials) are plain members.
 * - The big course (order 0): modules m = 1…20, lessons k = 1…50 in each (ids md5 of m and k). Each
 *   lesson has a title, a one- or two-sentence description, a YouTube or Vimeo link, a duration of
 *   3–25 minutes and 0–3 resources (https links); the first lesson is a free preview.
 * - Nine more published courses of 4 modules × 10 lessons (orders 1…9), and a draft (order 10).
 * - Elsewhere: 50 other communities (owned by owner@hearth.test, no other members) with 4 published
 *   courses of 5 modules × 20 lessons each, 20,000 lessons, so the lesson and module tables are
 *   mostly other courses' rows, as on a real instance, and the planner reaches this course's rows
 *   through the indexes.
 * - Completions: member@hearth.test has completed exactly 300 lessons of the big course (those whose
 *   number in reading order is 0, 3 or 6 modulo 10, spread over every module); other member j has
 *   completed the first f(j) lessons in reading order, f falling off like real courses (most stop
 *   early, a few finish): about 400,000 rows.
 */
import type pg from "pg";

export const COURSES_BENCH = {
  communitySlug: "bench-courses",
  modules: 20,
  lessonsPerModule: 50,
  otherCourses: 9,
  otherModules: 4,
  otherLessonsPerModule: 10,
  otherMembers: 2_000,
  /** Courses of other communities, so the lesson tables are not just this community's. */
  filler: { communities: 50, coursesEach: 4, modules: 5, lessonsPerModule: 20 },
  /** member@hearth.test's completions in the big course. */
  viewerCompletions: 300,
} as const;

const B = COURSES_BENCH;
const F = B.filler;
const LESSONS = B.modules * B.lessonsPerModule;

export const COMMUNITY_ID = `md5('hearth-bench-courses-community')::uuid`;
export const BIG_COURSE_ID = `md5('hearth-bench-courses-big')::uuid`;
const courseId = (i: string) => `md5('hearth-bench-courses-course-' || ${i})::uuid`;
const moduleId = (c: string, m: string) => `md5('hearth-bench-courses-module-' || ${c} || '-' || ${m})::uuid`;
const lessonId = (c: string, m: string, k: string) =>
  `md5('hearth-bench-courses-lesson-' || ${c} || '-' || ${m} || '-' || ${k})::uuid`;
const userId = (n: string) => `md5('hearth-bench-courses-user-' || ${n})`;
const sqlText = (s: string) => `'${s.replaceAll("'", "''")}'`;
const sqlArray = (xs: string[]) => `ARRAY[${xs.map(sqlText).join(", ")}]`;

const TOPICS = [
  "Audience research",
  "Positioning",
  "Publishing rhythm",
  "Writing hooks",
  "Short video",
  "Newsletters",
  "Community rituals",
  "Analytics",
  "Collaborations",
  "Pricing",
  "Launches",
  "Sponsorships",
  "Memberships",
  "Courses",
  "Live sessions",
  "Email sequences",
  "Search",
  "Repurposing",
  "Burnout and pacing",
  "Your next year",
];
const VERBS = ["Introduction to", "A closer look at", "Hands-on:", "Common mistakes in", "Case study:", "Review:"];
const SENTENCES = [
  "We walk through a real example from the community, step by step.",
  "Pause the video at each exercise and write your own answer before you go on.",
  "By the end you will have a one-page plan you can use this week.",
  "The worksheet in the resources has every prompt from the lesson.",
  "Most people skip this step; it is the one that makes the rest work.",
  "Share what you made in the community and ask for feedback.",
];
const VIDEOS = [
  "https://www.youtube.com/watch?v=u4ZoJKF_VuA",
  "https://www.youtube.com/watch?v=arj7oStGLkU",
  "https://www.youtube.com/watch?v=iCvmsMzlF7o",
  "https://www.youtube.com/watch?v=H14bBuluwB8",
  "https://www.youtube.com/watch?v=eIho2S0ZahI",
  "https://vimeo.com/76979871",
];
const RESOURCES = ["Worksheet", "Slides", "Checklist", "Template", "Further reading", "Example"];

/** Lessons of one course: `c` names the course (an SQL text literal), `salt` varies its hashes. */
function lessonsSql(c: string, salt: number, modules: number, lessons: number) {
  return `
INSERT INTO course_lessons (id, module_id, title, description, video_url, video_duration, is_preview, order_index,
  resources, created_at)
SELECT ${lessonId(c, "m", "k")}, ${moduleId(c, "m")},
       (${sqlArray(VERBS)})[1 + (h % ${VERBS.length})] || ' ' || lower((${sqlArray(TOPICS)})[1 + (m - 1) % ${TOPICS.length}]) ||
         ', part ' || k,
       (${sqlArray(SENTENCES)})[1 + (h / 7) % ${SENTENCES.length}] ||
         CASE WHEN h % 2 = 0 THEN ' ' || (${sqlArray(SENTENCES)})[1 + (h / 11) % ${SENTENCES.length}] ELSE '' END,
       (${sqlArray(VIDEOS)})[1 + (h / 13) % ${VIDEOS.length}],
       180 + (h % 1320)::int,
       m = 1 AND k = 1,
       k - 1,
       coalesce((SELECT jsonb_agg(jsonb_build_object(
                  'title', (${sqlArray(RESOURCES)})[1 + (h / 17 + r) % ${RESOURCES.length}] || ' for lesson ' || k,
                  'url', 'https://example.com/courses/' || ${c} || '/' || m || '-' || k || '/' || r) ORDER BY r)
                 FROM generate_series(1, (h % 4)::int) r), '[]'::jsonb),
       timestamptz '2025-01-01 00:00:00+00' + ((m - 1) * ${lessons} + k) * interval '1 minute'
FROM generate_series(1, ${modules}) m CROSS JOIN generate_series(1, ${lessons}) k,
     LATERAL (SELECT abs(hashint4(m * 1000 + k + ${salt * 100_000})::bigint) AS h) x`;
}

type Step = { label: string; sql: string; params?: ("owner" | "member")[] };

/** The statements, in order, with the demo accounts' ids they take as parameters. */
export function coursesBenchSql(): Step[] {
  return [
    {
      label: "community",
      sql: `
INSERT INTO communities (id, name, slug, description, short_description, tagline, category, type, price,
  creator_name, visibility, invite_code, created_by, rules, onboarding_completed, created_at, updated_at)
SELECT ${COMMUNITY_ID}, 'Course Builders Academy', '${B.communitySlug}',
       'A school for creators: long courses on audience, content and business, taken at your own pace.',
       'Long courses for creators.', 'Learn it properly', 'marketing', 'free', 0,
       o.name, 'public', 'benchCoursesInviteCode', o.id, '["Be kind", "Share what you learn"]'::jsonb, true,
       timestamptz '2025-01-01 00:00:00+00', timestamptz '2025-01-01 00:00:00+00'
FROM "user" o WHERE o.id = $1`,
      params: ["owner"],
    },
    {
      label: "users",
      sql: `
INSERT INTO "user" (id, name, email, email_verified, created_at, updated_at)
SELECT ${userId("n")}, 'Learner ' || n, 'bench-courses-' || n || '@bench.hearth.test', true,
       timestamptz '2025-01-01 00:00:00+00', timestamptz '2025-01-01 00:00:00+00'
FROM generate_series(1, ${B.otherMembers}) n`,
    },
    {
      label: "user profiles",
      sql: `
INSERT INTO user_profiles (user_id, username, full_name, created_at, updated_at)
SELECT ${userId("n")}, 'learner' || n, 'Learner ' || n, timestamptz '2025-01-01 00:00:00+00',
       timestamptz '2025-01-01 00:00:00+00'
FROM generate_series(1, ${B.otherMembers}) n`,
    },
    {
      label: "memberships",
      sql: `
INSERT INTO community_members (community_id, user_id, role, joined_at, last_active_at)
SELECT ${COMMUNITY_ID}, u, r, timestamptz '2025-01-02 00:00:00+00', timestamptz '2025-06-01 00:00:00+00'
FROM (SELECT $1::text AS u, 'owner' AS r UNION ALL SELECT $2::text, 'member'
      UNION ALL SELECT ${userId("n")}, 'member' FROM generate_series(1, ${B.otherMembers}) n) s`,
      params: ["owner", "member"],
    },
    {
      label: "courses",
      sql: `
INSERT INTO courses (id, community_id, title, description, price, status, order_index, created_by, created_at, updated_at)
SELECT ${BIG_COURSE_ID}, ${COMMUNITY_ID}, 'The Complete Creator Curriculum',
       'Twenty modules, a thousand lessons: everything from finding your audience to running a business around it.',
       0, 'published', 0, $1::text, timestamptz '2025-01-01 00:00:00+00', timestamptz '2025-01-01 00:00:00+00'
UNION ALL
SELECT ${courseId("i")}, ${COMMUNITY_ID},
       (${sqlArray(TOPICS)})[i] || ' in depth',
       'A focused course on ' || lower((${sqlArray(TOPICS)})[i]) || ', with exercises and templates.',
       CASE WHEN i % 3 = 0 THEN 49 ELSE 0 END, CASE WHEN i = ${B.otherCourses + 1} THEN 'draft' ELSE 'published' END,
       i, $1::text, timestamptz '2025-01-01 00:00:00+00' + i * interval '1 day',
       timestamptz '2025-01-01 00:00:00+00' + i * interval '1 day'
FROM generate_series(1, ${B.otherCourses + 1}) i`,
      params: ["owner"],
    },
    {
      label: "modules",
      sql: `
INSERT INTO course_modules (id, course_id, title, description, order_index)
SELECT ${moduleId("'big'", "m")}, ${BIG_COURSE_ID},
       'Module ' || m || ': ' || (${sqlArray(TOPICS)})[1 + (m - 1) % ${TOPICS.length}],
       'What ' || lower((${sqlArray(TOPICS)})[1 + (m - 1) % ${TOPICS.length}]) || ' means for a small creator, and how to practise it.',
       m - 1
FROM generate_series(1, ${B.modules}) m
UNION ALL
SELECT ${moduleId("i::text", "m")}, ${courseId("i")}, 'Part ' || m, '', m - 1
FROM generate_series(1, ${B.otherCourses + 1}) i CROSS JOIN generate_series(1, ${B.otherModules}) m`,
    },
    { label: "lessons (big course)", sql: lessonsSql("'big'", 0, B.modules, B.lessonsPerModule) },
    ...Array.from({ length: B.otherCourses + 1 }, (_, i) => ({
      label: `lessons (course ${i + 1})`,
      sql: lessonsSql(`'${i + 1}'`, i + 1, B.otherModules, B.otherLessonsPerModule),
    })),
    {
      label: "other communities",
      sql: `
INSERT INTO communities (id, name, slug, description, category, type, price, creator_name, visibility, invite_code,
  created_by, onboarding_completed, created_at, updated_at)
SELECT md5('hearth-bench-courses-other-' || c)::uuid, 'Course school ' || c, 'bench-courses-other-' || c,
       'Another community with courses.', 'marketing', 'free', 0, o.name, 'public', 'benchCoursesOther' || c, o.id, true,
       timestamptz '2025-01-01 00:00:00+00', timestamptz '2025-01-01 00:00:00+00'
FROM generate_series(1, ${F.communities}) c CROSS JOIN "user" o WHERE o.id = $1`,
      params: ["owner"],
    },
    {
      label: "other communities' courses",
      sql: `
INSERT INTO courses (id, community_id, title, description, price, status, order_index, created_by, created_at, updated_at)
SELECT md5('hearth-bench-courses-other-' || c || '-' || i)::uuid, md5('hearth-bench-courses-other-' || c)::uuid,
       'Course ' || i, 'A course elsewhere.', 0, 'published', i - 1, $1::text, timestamptz '2025-01-01 00:00:00+00',
       timestamptz '2025-01-01 00:00:00+00'
FROM generate_series(1, ${F.communities}) c CROSS JOIN generate_series(1, ${F.coursesEach}) i`,
      params: ["owner"],
    },
    {
      label: "other communities' modules",
      sql: `
INSERT INTO course_modules (id, course_id, title, description, order_index)
SELECT md5('hearth-bench-courses-other-' || c || '-' || i || '-' || m)::uuid,
       md5('hearth-bench-courses-other-' || c || '-' || i)::uuid, 'Module ' || m, '', m - 1
FROM generate_series(1, ${F.communities}) c CROSS JOIN generate_series(1, ${F.coursesEach}) i
CROSS JOIN generate_series(1, ${F.modules}) m`,
    },
    {
      label: "other communities' lessons",
      sql: `
INSERT INTO course_lessons (module_id, title, description, video_url, video_duration, order_index, resources, created_at)
SELECT md5('hearth-bench-courses-other-' || c || '-' || i || '-' || m)::uuid, 'Lesson ' || k,
       (${sqlArray(SENTENCES)})[1 + (c + i + m + k) % ${SENTENCES.length}],
       (${sqlArray(VIDEOS)})[1 + (c + k) % ${VIDEOS.length}], 300 + k * 17, k - 1,
       jsonb_build_array(jsonb_build_object('title', 'Worksheet', 'url', 'https://example.com/worksheets/' || k)),
       timestamptz '2025-01-01 00:00:00+00' + k * interval '1 minute'
FROM generate_series(1, ${F.communities}) c CROSS JOIN generate_series(1, ${F.coursesEach}) i
CROSS JOIN generate_series(1, ${F.modules}) m CROSS JOIN generate_series(1, ${F.lessonsPerModule}) k`,
    },
    {
      label: "completions (member@hearth.test)",
      sql: `
INSERT INTO lesson_completions (user_id, lesson_id, module_id, course_id, completed_at)
SELECT $1::text, ${lessonId("'big'", "m", "k")}, ${moduleId("'big'", "m")}, ${BIG_COURSE_ID},
       timestamptz '2025-03-01 00:00:00+00' + n * interval '1 hour'
FROM generate_series(0, ${LESSONS - 1}) n,
     LATERAL (SELECT 1 + n / ${B.lessonsPerModule} AS m, 1 + n % ${B.lessonsPerModule} AS k) x
WHERE n % 10 IN (0, 3, 6)`,
      params: ["member"],
    },
    // The other members' completions go in without foreign-key checks (session_replication_role =
    // replica, this session only; there are no triggers on the table): the rows reference lessons,
    // modules and users made above, and are counted after the build.
    { label: "foreign-key checks off", sql: "SET session_replication_role = replica" },
    {
      // Member j completed the first f(j) lessons: f = 1000 · (j / N)^4 over a permutation of j,
      // so most stopped early and a few finished.
      label: "completions (other members)",
      sql: `
INSERT INTO lesson_completions (user_id, lesson_id, module_id, course_id, completed_at)
SELECT ${userId("j")}, ${lessonId("'big'", "m", "k")}, ${moduleId("'big'", "m")}, ${BIG_COURSE_ID},
       timestamptz '2025-02-01 00:00:00+00' + (j * 7 + n) * interval '1 minute'
FROM generate_series(1, ${B.otherMembers}) j,
     LATERAL (SELECT floor(${LESSONS} * power(((j::bigint * 7919) % ${B.otherMembers} + 1)::float8 / ${B.otherMembers}, 4))::int AS f) d,
     LATERAL generate_series(0, d.f - 1) n,
     LATERAL (SELECT 1 + n / ${B.lessonsPerModule} AS m, 1 + n % ${B.lessonsPerModule} AS k) x`,
    },
    { label: "foreign-key checks on", sql: "RESET session_replication_role" },
    {
      label: "vacuum analyze",
      sql: `VACUUM (ANALYZE) communities, community_members, "user", user_profiles, courses, course_modules,
        course_lessons, lesson_completions, entitlements`,
    },
  ];
}

export type CoursesBenchFacts = {
  buildSeconds: number;
  courses: number;
  modules: number;
  lessons: number;
  bigCourseLessons: number;
  bigCourseResources: number;
  completions: number;
  viewerCompletions: number;
  members: number;
  /** Every course and lesson in the database: these, the other communities' and the demo seed's. */
  coursesEverywhere: number;
  lessonsEverywhere: number;
};

/** Runs the statements on a connected client, checks what they made, and answers the facts. */
export async function buildCoursesBench(
  client: pg.Client,
  ids: { ownerId: string; memberId: string },
  log: (line: string) => void,
): Promise<CoursesBenchFacts> {
  const t0 = performance.now();
  for (const step of coursesBenchSql()) {
    const t1 = performance.now();
    const params = step.params?.map((who) => (who === "owner" ? ids.ownerId : ids.memberId));
    const res = await client.query(step.sql, params);
    const rows = typeof res.rowCount === "number" ? `, ${res.rowCount.toLocaleString("en-US")} rows` : "";
    log(`${step.label}: ${((performance.now() - t1) / 1000).toFixed(2)} s${rows}`);
  }
  const buildSeconds = (performance.now() - t0) / 1000;
  const facts = (
    await client.query<Omit<CoursesBenchFacts, "buildSeconds">>(
      `
    SELECT (SELECT count(*)::int FROM courses WHERE community_id = ${COMMUNITY_ID}) AS courses,
           (SELECT count(*)::int FROM course_modules m JOIN courses c ON c.id = m.course_id
             WHERE c.community_id = ${COMMUNITY_ID}) AS modules,
           (SELECT count(*)::int FROM course_lessons l JOIN course_modules m ON m.id = l.module_id
             JOIN courses c ON c.id = m.course_id WHERE c.community_id = ${COMMUNITY_ID}) AS lessons,
           (SELECT count(*)::int FROM course_lessons l JOIN course_modules m ON m.id = l.module_id
             WHERE m.course_id = ${BIG_COURSE_ID}) AS "bigCourseLessons",
           (SELECT coalesce(sum(jsonb_array_length(l.resources)), 0)::int FROM course_lessons l
             JOIN course_modules m ON m.id = l.module_id WHERE m.course_id = ${BIG_COURSE_ID}) AS "bigCourseResources",
           (SELECT count(*)::int FROM lesson_completions WHERE course_id = ${BIG_COURSE_ID}) AS completions,
           (SELECT count(*)::int FROM lesson_completions WHERE course_id = ${BIG_COURSE_ID} AND user_id = $1)
             AS "viewerCompletions",
           (SELECT member_count FROM communities WHERE id = ${COMMUNITY_ID}) AS members,
           (SELECT count(*)::int FROM courses) AS "coursesEverywhere",
           (SELECT count(*)::int FROM course_lessons) AS "lessonsEverywhere"`,
      [ids.memberId],
    )
  ).rows[0];
  if (facts.bigCourseLessons !== LESSONS) throw new Error(`the big course has ${facts.bigCourseLessons} lessons`);
  if (facts.viewerCompletions !== B.viewerCompletions) {
    throw new Error(`member@hearth.test has ${facts.viewerCompletions} completions, expected ${B.viewerCompletions}`);
  }
  if (facts.members !== B.otherMembers + 2) throw new Error(`member_count is ${facts.members}`);
  const orphans = (
    await client.query<{ n: number }>(`
    SELECT count(*)::int AS n FROM lesson_completions lc
     WHERE NOT EXISTS (SELECT 1 FROM course_lessons l JOIN course_modules m ON m.id = l.module_id
                        WHERE l.id = lc.lesson_id AND l.module_id = lc.module_id AND m.course_id = lc.course_id)
        OR NOT EXISTS (SELECT 1 FROM "user" u WHERE u.id = lc.user_id)`)
  ).rows[0].n;
  if (orphans > 0) throw new Error(`${orphans} completions point at a missing lesson, module, course or user`);
  return { ...facts, buildSeconds };
}
