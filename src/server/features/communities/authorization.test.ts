/**
 * The authorization matrix: every community, membership and invite endpoint × every actor × a
 * public and a private community. The expected statuses below are written out by hand from
 * SPEC §6 (and §4, §8 for membership), not derived from the code under test. Every case runs on a
 * fresh community, so writes cannot leak into other cases.
 */
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestApp, multipart, ORIGIN, signedInUser, type TestApp } from "../../test/harness";

const ACTORS = ["anonymous", "nonmember", "guest", "member", "moderator", "admin", "owner"] as const;
type Actor = (typeof ACTORS)[number];
type Visibility = "public" | "private";
type Row = Record<Actor, number>;

/** One expected status per actor, in ACTORS order. */
const row = (...statuses: number[]): Row => Object.fromEntries(ACTORS.map((actor, i) => [actor, statuses[i]])) as Row;

//                                    anon nonmem guest member mod admin owner
const MANAGERS_PUBLIC = row(401, 403, 403, 403, 403, 200, 200); // owner, admin (SPEC §6)
const MANAGERS_PRIVATE = row(401, 404, 403, 403, 403, 200, 200); // outsiders cannot tell it exists
const MANAGERS_204_PUBLIC = row(401, 403, 403, 403, 403, 204, 204);
const MANAGERS_204_PRIVATE = row(401, 404, 403, 403, 403, 204, 204);

type Case = {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** OpenAPI path, with {communityId}, {userId}, {inviteCode}. */
  path: string;
  body?: unknown;
  upload?: "svg" | "png";
  /** Multipart text fields sent before the file ({communityId} is filled in). */
  fields?: Record<string, string>;
  expected: Record<Visibility, Row>;
};

const CASES: Case[] = [
  {
    method: "GET",
    path: "/api/communities",
    expected: { public: row(200, 200, 200, 200, 200, 200, 200), private: row(200, 200, 200, 200, 200, 200, 200) },
  },
  {
    method: "POST",
    path: "/api/communities",
    body: { name: "Another one" },
    // Any signed-in user may create a community.
    expected: { public: row(401, 201, 201, 201, 201, 201, 201), private: row(401, 201, 201, 201, 201, 201, 201) },
  },
  {
    method: "GET",
    path: "/api/communities/{communityId}",
    // Private communities are blocked for non-members: the gate (403), nothing more.
    expected: { public: row(200, 200, 200, 200, 200, 200, 200), private: row(403, 403, 200, 200, 200, 200, 200) },
  },
  {
    method: "PATCH",
    path: "/api/communities/{communityId}",
    body: { tagline: "Updated" },
    expected: { public: MANAGERS_PUBLIC, private: MANAGERS_PRIVATE },
  },
  {
    method: "DELETE",
    path: "/api/communities/{communityId}",
    // delete_community: owner only.
    expected: { public: row(401, 403, 403, 403, 403, 403, 204), private: row(401, 404, 403, 403, 403, 403, 204) },
  },
  {
    method: "POST",
    path: "/api/communities/{communityId}/invite/regenerate",
    expected: { public: MANAGERS_PUBLIC, private: MANAGERS_PRIVATE },
  },
  {
    method: "GET",
    path: "/api/communities/{communityId}/categories",
    expected: { public: row(200, 200, 200, 200, 200, 200, 200), private: row(404, 404, 200, 200, 200, 200, 200) },
  },
  {
    method: "PUT",
    path: "/api/communities/{communityId}/categories",
    body: { categories: [{ name: "General", emoji: "" }] },
    expected: { public: MANAGERS_PUBLIC, private: MANAGERS_PRIVATE },
  },
  {
    method: "POST",
    path: "/api/communities/{communityId}/icon",
    upload: "svg",
    expected: { public: MANAGERS_PUBLIC, private: MANAGERS_PRIVATE },
  },
  {
    method: "POST",
    path: "/api/communities/{communityId}/cover",
    upload: "png",
    expected: { public: MANAGERS_PUBLIC, private: MANAGERS_PRIVATE },
  },
  {
    method: "GET",
    path: "/api/communities/{communityId}/stats",
    // view_analytics: owner, admin.
    expected: { public: MANAGERS_PUBLIC, private: MANAGERS_PRIVATE },
  },
  {
    method: "POST",
    path: "/api/communities/{communityId}/join",
    // Anyone signed in joins a public community; a private one only by invite; members stay members.
    expected: { public: row(401, 200, 200, 200, 200, 200, 200), private: row(401, 403, 200, 200, 200, 200, 200) },
  },
  {
    method: "POST",
    path: "/api/communities/{communityId}/leave",
    // Members can leave; the only owner cannot (409); a non-member is told they are not one.
    expected: { public: row(401, 400, 200, 200, 200, 200, 409), private: row(401, 404, 200, 200, 200, 200, 409) },
  },
  {
    method: "GET",
    path: "/api/communities/{communityId}/members",
    // Only members see the member list.
    expected: { public: row(403, 403, 200, 200, 200, 200, 200), private: row(404, 404, 200, 200, 200, 200, 200) },
  },
  {
    method: "PATCH",
    path: "/api/communities/{communityId}/members/{userId}",
    body: { role: "moderator" },
    // change_roles: owner, admin, on a member ranked below them.
    expected: { public: MANAGERS_PUBLIC, private: MANAGERS_PRIVATE },
  },
  {
    method: "DELETE",
    path: "/api/communities/{communityId}/members/{userId}",
    // remove_members: owner, admin.
    expected: { public: MANAGERS_204_PUBLIC, private: MANAGERS_204_PRIVATE },
  },
  {
    method: "GET",
    path: "/api/communities/{communityId}/bans",
    expected: { public: MANAGERS_PUBLIC, private: MANAGERS_PRIVATE },
  },
  {
    method: "POST",
    path: "/api/communities/{communityId}/bans",
    body: { user_id: "{userId}" },
    // ban_users: owner, admin.
    expected: { public: MANAGERS_204_PUBLIC, private: MANAGERS_204_PRIVATE },
  },
  {
    method: "DELETE",
    path: "/api/communities/{communityId}/bans/{userId}",
    expected: { public: MANAGERS_204_PUBLIC, private: MANAGERS_204_PRIVATE },
  },
  {
    method: "GET",
    path: "/api/communities/{communityId}/posts",
    expected: { public: row(200, 200, 200, 200, 200, 200, 200), private: row(404, 404, 200, 200, 200, 200, 200) },
  },
  {
    method: "POST",
    path: "/api/communities/{communityId}/posts",
    body: { content: "Hello" },
    // create_post: owner, admin, moderator, member (not guest); a signed-in non-member of a public
    // community joins as a member by posting (docs/decisions/0004-communities.md).
    expected: { public: row(401, 201, 403, 201, 201, 201, 201), private: row(401, 404, 403, 201, 201, 201, 201) },
  },
  {
    method: "GET",
    path: "/api/communities/{communityId}/posts/pending",
    // moderate_posts: owner, admin, moderator.
    expected: { public: row(401, 403, 403, 403, 200, 200, 200), private: row(401, 404, 403, 403, 200, 200, 200) },
  },
  {
    method: "POST",
    path: "/api/communities/{communityId}/media",
    upload: "png",
    // Post images: members with the right to post there (issue 5: a community's media only by them).
    expected: { public: row(401, 403, 403, 200, 200, 200, 200), private: row(401, 404, 403, 200, 200, 200, 200) },
  },
  {
    method: "POST",
    path: "/api/upload",
    upload: "png",
    fields: { communityId: "{communityId}", uploadType: "posts" },
    // A community's media: members with the right to post there.
    expected: { public: row(401, 403, 403, 200, 200, 200, 200), private: row(401, 404, 403, 200, 200, 200, 200) },
  },
  {
    method: "POST",
    path: "/api/upload",
    upload: "png",
    fields: { communityId: "{communityId}", uploadType: "courses" },
    // Course media: owner and admin, who build courses (SPEC §6).
    expected: { public: MANAGERS_PUBLIC, private: MANAGERS_PRIVATE },
  },
  {
    method: "GET",
    path: "/api/communities/{communityId}/courses",
    // Published courses: whoever sees the community (SPEC §6).
    expected: { public: row(200, 200, 200, 200, 200, 200, 200), private: row(404, 404, 200, 200, 200, 200, 200) },
  },
  {
    method: "POST",
    path: "/api/communities/{communityId}/courses",
    body: { title: "A course", description: "About it" },
    // Admin creates courses; the owner too (SPEC §6).
    expected: { public: row(401, 403, 403, 403, 403, 201, 201), private: row(401, 404, 403, 403, 403, 201, 201) },
  },
  {
    method: "PUT",
    path: "/api/communities/{communityId}/courses/order",
    body: { ids: ["00000000-0000-4000-8000-000000000000"] },
    // Managers get past the check and are told the order must name every course.
    expected: { public: row(401, 403, 403, 403, 403, 400, 400), private: row(401, 404, 403, 403, 403, 400, 400) },
  },
  {
    method: "GET",
    path: "/api/upload/health",
    // Which storage is in use: nothing about any community.
    expected: { public: row(200, 200, 200, 200, 200, 200, 200), private: row(200, 200, 200, 200, 200, 200, 200) },
  },
  {
    method: "POST",
    path: "/api/upload/complete",
    body: { key: "community-assets/{communityId}/posts/none.mp4" },
    // Signed-in only; a key is completed only by who reserved it, so anyone else gets the expired-key message.
    expected: { public: row(401, 400, 400, 400, 400, 400, 400), private: row(401, 400, 400, 400, 400, 400, 400) },
  },
  {
    method: "POST",
    path: "/api/upload/presigned-url",
    body: {
      fileName: "clip.mp4",
      fileType: "video/mp4",
      communityId: "{communityId}",
      uploadType: "posts",
      fileSize: 1000,
    },
    expected: { public: row(401, 403, 403, 200, 200, 200, 200), private: row(401, 404, 403, 200, 200, 200, 200) },
  },
  {
    method: "POST",
    path: "/api/upload/presigned-url",
    body: {
      fileName: "clip.mp4",
      fileType: "video/mp4",
      communityId: "{communityId}",
      uploadType: "courses",
      fileSize: 1000,
    },
    expected: { public: MANAGERS_PUBLIC, private: MANAGERS_PRIVATE },
  },
  {
    method: "GET",
    path: "/api/communities/{communityId}/leaderboard",
    expected: { public: row(200, 200, 200, 200, 200, 200, 200), private: row(404, 404, 200, 200, 200, 200, 200) },
  },
  {
    method: "GET",
    path: "/api/invites/{inviteCode}",
    // The code is the capability: whoever holds it sees the invite view.
    expected: { public: row(200, 200, 200, 200, 200, 200, 200), private: row(200, 200, 200, 200, 200, 200, 200) },
  },
  {
    method: "POST",
    path: "/api/invites/{inviteCode}/accept",
    expected: { public: row(401, 200, 409, 409, 409, 409, 409), private: row(401, 200, 409, 409, 409, 409, 409) },
  },
];

let t: TestApp;
let users: Record<Exclude<Actor, "anonymous"> | "target", { id: string; cookie: string }>;
let png: Buffer;
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="4"/></svg>');

beforeAll(async () => {
  t = await createTestApp();
  const names = ["nonmember", "guest", "member", "moderator", "admin", "owner", "target"] as const;
  const signed = await Promise.all(names.map(() => signedInUser(t)));
  users = Object.fromEntries(names.map((n, i) => [n, signed[i]])) as unknown as typeof users;
  png = await sharp({ create: { width: 64, height: 32, channels: 3, background: "#b45309" } })
    .png()
    .toBuffer();
});
afterAll(() => t.close());

/** A fresh community with one user in each role, plus a plain member as the target of member actions. */
async function fixture(visibility: Visibility) {
  const code = randomBytes(16).toString("base64url");
  const slug = `authz-${randomBytes(6).toString("hex")}`;
  const { rows } = await t.database.pool.query<{ id: string }>(
    `INSERT INTO communities (name, slug, visibility, invite_code, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    ["Matrix", slug, visibility, code, users.owner.id],
  );
  const id = rows[0].id;
  const roles: [keyof typeof users, string][] = [
    ["owner", "owner"],
    ["admin", "admin"],
    ["moderator", "moderator"],
    ["member", "member"],
    ["guest", "guest"],
    ["target", "member"],
  ];
  for (const [who, role] of roles) {
    await t.database.pool.query(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, $3)`, [
      id,
      users[who].id,
      role,
    ]);
  }
  // The target is also banned in advance, so "lift ban" has something to lift.
  await t.database.pool.query(`INSERT INTO community_bans (community_id, user_id) VALUES ($1, $2)`, [
    id,
    users.target.id,
  ]);
  return { id, code };
}

async function call(c: Case, actor: Actor, f: { id: string; code: string }) {
  const fill = (s: string) =>
    s.replace("{communityId}", f.id).replace("{userId}", users.target.id).replace("{inviteCode}", f.code);
  const url = fill(c.path);
  const cookie = actor === "anonymous" ? undefined : users[actor].cookie;
  if (c.upload) {
    const fields = Object.fromEntries(Object.entries(c.fields ?? {}).map(([k, v]) => [k, fill(v)]));
    const body =
      c.upload === "svg"
        ? multipart("icon.svg", "image/svg+xml", svg, fields)
        : multipart("cover.png", "image/png", png, fields);
    const res = await t.app.inject({
      method: c.method,
      url,
      headers: { origin: ORIGIN, "content-type": body.contentType, ...(cookie ? { cookie } : {}) },
      payload: body.payload,
    });
    return res.statusCode;
  }
  const body = c.body === undefined ? undefined : JSON.parse(fill(JSON.stringify(c.body)));
  const res = await t.app.inject({
    method: c.method,
    url,
    headers: {
      origin: ORIGIN,
      ...(cookie ? { cookie } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.statusCode;
}

describe("authorization matrix", () => {
  it("covers every community, membership, invite, post and upload route of the API", async () => {
    const doc = (await api(t.app).get("/api/openapi.json")).body as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths)
      .filter(([path]) => /^\/api\/(communities|invites|upload)(\/|$)/.test(path))
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    const covered = CASES.map((c) => `${c.method} ${c.path}`);
    expect(
      routes.filter((r) => !covered.includes(r)),
      "routes missing from the matrix",
    ).toEqual([]);
    expect(
      covered.filter((r) => !routes.includes(r)),
      "matrix rows with no route",
    ).toEqual([]);
  });

  for (const visibility of ["public", "private"] as const) {
    for (const c of CASES) {
      it(`${c.method} ${c.path} on a ${visibility} community`, async () => {
        const actual: Partial<Row> = {};
        for (const actor of ACTORS) actual[actor] = await call(c, actor, await fixture(visibility));
        expect(actual).toEqual(c.expected[visibility]);
      });
    }
  }
});
