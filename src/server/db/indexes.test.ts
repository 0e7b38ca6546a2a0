import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "#server/test/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const U = "'00000000-0000-0000-0000-000000000001'::uuid";

/** The queries of SPEC §7, each with the index that must serve it (in order, so without a Sort). */
const QUERIES: [string, string, string][] = [
  [
    "directory by member count",
    "communities_directory_idx",
    "SELECT id FROM communities WHERE visibility = 'public' ORDER BY member_count DESC, id LIMIT 24",
  ],
  [
    "directory filtered by category",
    "communities_category_directory_idx",
    "SELECT id FROM communities WHERE visibility = 'public' AND category = 'arts' ORDER BY member_count DESC, id LIMIT 24",
  ],
  ["community by slug", "communities_slug_key", "SELECT id FROM communities WHERE slug = 'x'"],
  ["community by invite code", "communities_invite_code_key", "SELECT id FROM communities WHERE invite_code = 'x'"],
  ["communities of a creator", "communities_created_by_idx", "SELECT id FROM communities WHERE created_by = 'u'"],
  [
    "post categories of a community",
    "post_categories_community_idx",
    `SELECT id FROM post_categories WHERE community_id = ${U} ORDER BY order_index`,
  ],
  [
    "feed, newest first with pinned on top",
    "posts_feed_idx",
    `SELECT id FROM posts WHERE community_id = ${U} AND is_approved AND deleted_at IS NULL ORDER BY is_pinned DESC, created_at DESC, id DESC LIMIT 50`,
  ],
  [
    "feed of one post category",
    "posts_category_feed_idx",
    `SELECT id FROM posts WHERE community_id = ${U} AND category_id = ${U} ORDER BY created_at DESC, id DESC LIMIT 50`,
  ],
  [
    "role of a user in a community",
    "community_members_community_id_user_id_pk",
    `SELECT role FROM community_members WHERE community_id = ${U} AND user_id = 'u'`,
  ],
  [
    "communities a user belongs to",
    "community_members_user_idx",
    "SELECT community_id FROM community_members WHERE user_id = 'u' ORDER BY joined_at DESC",
  ],
  [
    "directory, a later page (keyset)",
    "communities_directory_idx",
    `SELECT id FROM communities WHERE visibility = 'public' AND member_count <= 50 AND (member_count < 50 OR id > ${U}) ORDER BY member_count DESC, id LIMIT 25`,
  ],
  [
    "members table, a later page (keyset)",
    "community_members_joined_idx",
    `SELECT user_id FROM community_members WHERE community_id = ${U} AND (joined_at, user_id) > (now(), 'u') ORDER BY joined_at, user_id LIMIT 51`,
  ],
  [
    "admins of a community",
    "community_members_role_idx",
    `SELECT user_id FROM community_members WHERE community_id = ${U} AND role = 'admin'`,
  ],
  [
    "notifications, 10 newest",
    "notifications_user_idx",
    "SELECT id FROM notifications WHERE user_id = 'u' ORDER BY created_at DESC, id DESC LIMIT 10",
  ],
  [
    "unread count",
    "notifications_unread_idx",
    "SELECT count(*) FROM notifications WHERE user_id = 'u' AND is_read = false",
  ],
  [
    "courses of a community",
    "courses_community_idx",
    `SELECT id FROM courses WHERE community_id = ${U} ORDER BY order_index`,
  ],
  [
    "modules of a course",
    "course_modules_course_idx",
    `SELECT id FROM course_modules WHERE course_id = ${U} ORDER BY order_index`,
  ],
  [
    "lessons of a module",
    "course_lessons_module_idx",
    `SELECT id FROM course_lessons WHERE module_id = ${U} ORDER BY order_index`,
  ],
  [
    "completions of a user",
    "lesson_completions_course_idx",
    `SELECT lesson_id FROM lesson_completions WHERE user_id = 'u' AND course_id = ${U}`,
  ],
  [
    "a user's like of a post",
    "post_likes_post_id_user_id_pk",
    `SELECT 1 FROM post_likes WHERE post_id = ${U} AND user_id = 'u'`,
  ],
  [
    "saved posts of a user",
    "saved_posts_user_idx",
    "SELECT post_id FROM saved_posts WHERE user_id = 'u' ORDER BY created_at DESC LIMIT 50",
  ],
  [
    "profile by username",
    "user_profiles_username_key",
    "SELECT id FROM user_profiles WHERE lower(username) = lower('ada')",
  ],
  ["session by token", "session_token_unique", "SELECT id FROM session WHERE token = 'x'"],
];

describe("indexes serve the spec's queries", () => {
  it.each(QUERIES)("%s uses %s without sorting", async (_name, index, query) => {
    const client = await t.database.pool.connect();
    try {
      // Empty tables make a sequential scan cheapest; forbid it to see which index the planner can use.
      await client.query("SET enable_seqscan = off");
      await client.query("SET enable_bitmapscan = off");
      const res = await client.query(`EXPLAIN (FORMAT JSON) ${query}`);
      const plan = JSON.stringify(res.rows[0]["QUERY PLAN"]);
      expect(plan).toContain(`"Index Name":"${index}"`);
      expect(plan).not.toContain('"Node Type":"Sort"');
      expect(plan).not.toContain('"Node Type":"Incremental Sort"');
    } finally {
      await client.query("RESET enable_seqscan");
      await client.query("RESET enable_bitmapscan");
      client.release();
    }
  });
});

describe("keyword search", () => {
  it("uses the trigram index on name and description", async () => {
    const client = await t.database.pool.connect();
    try {
      // A GIN index is read through a bitmap scan: forbid the other paths to see that it can serve the query.
      await client.query("SET enable_seqscan = off");
      await client.query("SET enable_indexscan = off");
      const res = await client.query(
        `EXPLAIN (FORMAT JSON) SELECT id FROM communities WHERE (name || ' ' || description) ILIKE '%pottery%'`,
      );
      expect(JSON.stringify(res.rows[0]["QUERY PLAN"])).toContain('"Index Name":"communities_search_idx"');
    } finally {
      await client.query("RESET enable_seqscan");
      await client.query("RESET enable_indexscan");
      client.release();
    }
  });
});
