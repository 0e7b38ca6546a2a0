import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LEVEL_THRESHOLDS, LEVEL_MESSAGES } from "#shared/levels";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";

// A minimum level to post (issue 20): members below it are refused with 403, comments stay open,
// owners, admins and moderators are never locked out.

let t: TestApp;
type User = Awaited<ReturnType<typeof signedInUser>>;
const ROLES = { owner: null, admin: "admin", moderator: "moderator", below: "member", at: "member", above: "member" };
type Who = keyof typeof ROLES | "outsider";
const users = {} as Record<Who, User>;
let community: { id: string };
const http = () => api(t.app);

async function setLevel(who: Who, level: number) {
  const points = DEFAULT_LEVEL_THRESHOLDS[level - 1];
  await t.database.pool.query(
    `INSERT INTO member_points (community_id, user_id, like_points, points, level) VALUES ($1, $2, $3, $3, $4)
     ON CONFLICT (community_id, user_id) DO UPDATE SET like_points = $3, points = $3, level = $4`,
    [community.id, users[who].id, points, level],
  );
}
const setMinLevel = (level: number) =>
  t.database.pool.query(`UPDATE communities SET min_post_level = $2, level_names = $3 WHERE id = $1`, [
    community.id,
    level,
    ["One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"],
  ]);
const post = (who: Who, content = "Hello") =>
  http().post(`/api/communities/${community.id}/posts`, { type: "text", content }, { cookie: users[who].cookie });

beforeAll(async () => {
  t = await createTestApp();
  for (const who of [...Object.keys(ROLES), "outsider"] as Who[]) users[who] = await signedInUser(t);
  community = (await http().post("/api/communities", { name: "Post level lab" }, { cookie: users.owner.cookie })).body;
  for (const [who, role] of Object.entries(ROLES)) {
    if (!role) continue;
    await t.database.pool.query(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)`, [
      community.id,
      users[who as Who].id,
      role,
    ]);
  }
  await setLevel("below", 2);
  await setLevel("at", 3);
  await setLevel("above", 4);
});
afterAll(() => t.close());

describe("a minimum level to post", () => {
  it("lets everyone post at level 1 (the default)", async () => {
    for (const who of Object.keys(ROLES) as Who[]) expect((await post(who)).status, who).toBe(201);
  });

  it("refuses members below the level with 403 and the level's name; exempts owners, admins and moderators", async () => {
    await setMinLevel(3);
    const expected: Record<Who, number> = {
      owner: 201,
      admin: 201,
      moderator: 201,
      below: 403,
      at: 201,
      above: 201,
      // A non-member of a public community joins by posting: at level 1, refused (and not joined).
      outsider: 403,
    };
    for (const [who, status] of Object.entries(expected) as [Who, number][]) {
      const res = await post(who, `From ${who}`);
      expect(res.status, who).toBe(status);
      if (status === 403) expect(res.body.error.message, who).toBe(LEVEL_MESSAGES.postLocked(3, "Three"));
    }
    const joined = await t.database.pool.query(
      `SELECT 1 FROM community_members WHERE community_id = $1 AND user_id = $2`,
      [community.id, users.outsider.id],
    );
    expect(joined.rowCount).toBe(0);
    const stored = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM posts WHERE community_id = $1 AND content = 'From below'`,
      [community.id],
    );
    expect(stored.rows[0].n).toBe(0);
    expect((await http().post(`/api/communities/${community.id}/posts`, { type: "text", content: "x" })).status).toBe(
      401,
    );
  });

  it("keeps comments open below the level, and opens posting once the level is reached", async () => {
    await setMinLevel(3);
    const mine = await post("owner", "Talk here");
    expect(mine.status).toBe(201);
    const comment = await http().post(
      `/api/posts/${mine.body.id}/comments`,
      { content: "Still allowed" },
      { cookie: users.below.cookie },
    );
    expect(comment.status, JSON.stringify(comment.body)).toBe(201);
    expect((await post("below")).status).toBe(403);
    await setLevel("below", 3);
    expect((await post("below")).status).toBe(201);
    await setLevel("below", 2);
    await setMinLevel(2);
    expect((await post("below")).status).toBe(201);
  });
});
