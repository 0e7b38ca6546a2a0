import { randomUUID } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { addRole, makeSpace, makeWorld, ok, type Space, type User, type World } from "./world";

// Shared by mass-assignment.test.ts (A4) and mass-assignment-proto.test.ts (W6): the world both
// write into, the extra fields, and the checker that finds them in stored rows.

export let t: TestApp;
export let h: ReturnType<typeof api>;
export let w: World;
export let joinable: Space;
export let victim: User;
export let pendingPostId: string;
export let memberPostId: string;
export let memberCommentId: string;
export let notificationId: string;
export const SENT_ID = randomUUID();
export const N = 987654;

/** Builds the world before the file's tests (community A moderated from then on); closes the app after. */
export function useMassAssignmentWorld() {
  beforeAll(async () => {
    t = await createTestApp();
    h = api(t.app);
    w = await makeWorld(t);
    victim = await signedInUser(t, { name: "Victim" });
    await addRole(t, w.a.id, victim.id, "member");
    // A community to join, public, and owned by someone who takes no part in the cases.
    joinable = await makeSpace(t, w.ownerB, `Join ${Date.now().toString(36)}`);
    memberPostId = ok(
      await h.post(`/api/communities/${w.a.id}/posts`, { content: "Mine" }, { cookie: w.member.cookie }),
      201,
    ).body.id;
    memberCommentId = ok(
      await h.post(`/api/posts/${w.a.postId}/comments`, { content: "Mine" }, { cookie: w.member.cookie }),
      201,
    ).body.id;
    ok(await h.post(`/api/posts/${memberPostId}/like`, {}, { cookie: w.owner.cookie }));
    notificationId = (await h.get("/api/notifications", { cookie: w.member.cookie })).body.items[0].id;
    // From here on members' posts wait for approval.
    ok(await h.patch(`/api/communities/${w.a.id}`, { moderation_enabled: true }, { cookie: w.owner.cookie }));
    pendingPostId = ok(
      await h.post(`/api/communities/${w.a.id}/posts`, { content: "Pending" }, { cookie: w.member.cookie }),
      201,
    ).body.id;
    ok(await h.patch(`/api/courses/${w.a.courseId}`, { price: 25, status: "published" }, { cookie: w.owner.cookie }));
  });
  afterAll(() => t.close());
}

/** Fields no caller may set, each with a value that would be recognised wherever it landed. */
export function extras(): Record<string, unknown> {
  return {
    id: SENT_ID,
    user_id: w.outsider.id,
    userId: w.outsider.id,
    author_id: w.outsider.id,
    owner_id: w.outsider.id,
    ownerId: w.outsider.id,
    created_by: w.outsider.id,
    issued_by: w.outsider.id,
    community_id: w.b.id,
    course_id: w.b.courseId,
    module_id: w.b.moduleId,
    post_id: w.b.postId,
    role: "owner",
    pinned: true,
    is_pinned: true,
    is_approved: true,
    approved: true,
    likes_count: N,
    comments_count: N,
    share_count: N,
    member_count: N,
    votes: N,
    price: N,
    progress: N,
    lessons_count: N,
    order_index: N,
    trial_days: N,
    amount: N,
    created_at: "2001-02-03T00:00:00.000Z",
    createdAt: "2001-02-03T00:00:00.000Z",
    email_verified: true,
    emailVerified: true,
    is_admin: true,
    slug: "mass-assigned-slug",
    invite_code: "MASSASSIGNEDCODE0000",
    key: "mass/assigned.png",
  };
}
const SENTINEL_STRINGS = () => [
  SENT_ID,
  w.outsider.id,
  w.b.id,
  w.b.courseId,
  w.b.moduleId,
  w.b.postId,
  "2001-02-03",
  "mass-assigned-slug",
  "MASSASSIGNEDCODE0000",
  "mass/assigned",
];

export type Snapshot = Map<string, string>;
let snapshotSql = "";
/** Every row of every table, by table and identity (one query). */
export async function snapshot(): Promise<Snapshot> {
  if (!snapshotSql) {
    const tables = (
      await t.database.pool.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
      )
    ).rows.map((r) => r.name);
    snapshotSql = tables.map((name) => `SELECT '${name}' AS t, to_jsonb(x) AS r FROM "${name}" x`).join(" UNION ALL ");
  }
  const out: Snapshot = new Map();
  const { rows } = await t.database.pool.query<{ t: string; r: Record<string, unknown> }>(snapshotSql);
  for (const { t: table, r } of rows) {
    const identity = "id" in r ? String(r.id) : JSON.stringify(r);
    out.set(`${table}:${identity}`, JSON.stringify(r));
  }
  return out;
}

/** Sentinel values found in rows that a request added or changed. */
export function planted(before: Snapshot, after: Snapshot): string[] {
  const found: string[] = [];
  const strings = SENTINEL_STRINGS();
  for (const [key, row] of after) {
    if (before.get(key) === row) continue;
    const previous = before.has(key) ? (JSON.parse(before.get(key)!) as Record<string, unknown>) : {};
    for (const [col, value] of Object.entries(JSON.parse(row) as Record<string, unknown>)) {
      if (JSON.stringify(previous[col]) === JSON.stringify(value)) continue;
      const text = typeof value === "string" ? value : JSON.stringify(value);
      if (Number(value) === N || strings.some((s) => text?.includes(s))) found.push(`${key}.${col} = ${text}`);
    }
  }
  return found;
}
