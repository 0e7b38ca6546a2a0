/**
 * A4 (mass assignment) and W6 (prototype pollution). Every write route that takes a body is sent
 * a valid body plus fields that are not the caller's to set — role, ids of other rows and other
 * communities, authorship, counters, pinned and approved flags, prices, times, slugs, keys —
 * each with a recognisable value. Each request is either refused (400; the same body without the
 * extra fields is then accepted, so the refusal is theirs) or accepted with the extras ignored:
 * no row it added or changed holds any of those values. Then `__proto__` and
 * `constructor.prototype` keys, in JSON bodies, query strings and multipart fields, must be
 * refused or ignored with Object.prototype untouched.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { unsubscribeToken } from "#server/lib/notifications";
import {
  extras,
  h,
  joinable,
  memberCommentId,
  memberPostId,
  N,
  notificationId,
  pendingPostId,
  planted,
  SENT_ID,
  snapshot,
  t,
  useMassAssignmentWorld,
  victim,
  w,
  type Snapshot,
} from "./mass-assignment.test-helpers";
import { YT, type User } from "./world";

useMassAssignmentWorld();

type Case = {
  label: string;
  actor: () => User;
  method: "POST" | "PUT" | "PATCH";
  url: () => string;
  body: () => Record<string, unknown>;
  /** Extra-field names this route takes for real (left out of the extras). */
  legit?: string[];
  /** Extras nested inside the body, beside the top-level ones. */
  nested?: () => Record<string, unknown>;
};

let courseIds: string[] = [];
/** Every course of community A, newest first (a valid new order). */
function courseOrder() {
  return { ids: [...courseIds].reverse() };
}

const CASES: Case[] = [
  {
    label: "profile",
    actor: () => w.member,
    method: "PATCH",
    url: () => "/api/me/profile",
    body: () => ({ bio: "mass" }),
  },
  {
    label: "notification settings",
    actor: () => w.member,
    method: "PATCH",
    url: () => "/api/me/notification-settings",
    body: () => ({ push_enabled: true }),
  },
  {
    label: "authenticator name",
    actor: () => w.member,
    method: "PUT",
    url: () => "/api/me/factors/totp",
    body: () => ({ friendly_name: "Phone" }),
  },
  {
    label: "community create",
    actor: () => w.member,
    method: "POST",
    url: () => "/api/communities",
    body: () => ({ name: `Mass ${Date.now().toString(36)}` }),
  },
  {
    label: "post create (moderated: stays pending, unpinned)",
    actor: () => w.member,
    method: "POST",
    url: () => `/api/communities/${w.a.id}/posts`,
    body: () => ({ content: "mass post" }),
  },
  {
    label: "post edit",
    actor: () => w.member,
    method: "PATCH",
    url: () => `/api/posts/${memberPostId}`,
    body: () => ({ content: "edited" }),
  },
  {
    label: "poll vote",
    actor: () => w.member,
    method: "POST",
    url: () => `/api/posts/${w.a.pollId}/vote`,
    body: () => ({ option_index: 0 }),
  },
  {
    label: "comment create",
    actor: () => w.member,
    method: "POST",
    url: () => `/api/posts/${w.a.postId}/comments`,
    body: () => ({ content: "mass comment" }),
  },
  {
    label: "comment edit",
    actor: () => w.member,
    method: "PATCH",
    url: () => `/api/comments/${memberCommentId}`,
    body: () => ({ content: "edited" }),
  },
  {
    label: "post like",
    actor: () => w.member,
    method: "POST",
    url: () => `/api/posts/${w.a.postId}/like`,
    body: () => ({}),
  },
  {
    label: "post save",
    actor: () => w.member,
    method: "POST",
    url: () => `/api/posts/${w.a.postId}/save`,
    body: () => ({}),
  },
  {
    label: "post share",
    actor: () => w.member,
    method: "POST",
    url: () => `/api/posts/${w.a.postId}/share`,
    body: () => ({}),
  },
  {
    label: "comment like",
    actor: () => w.member,
    method: "POST",
    url: () => `/api/comments/${w.a.commentId}/like`,
    body: () => ({}),
  },
  {
    label: "join",
    actor: () => w.member,
    method: "POST",
    url: () => `/api/communities/${joinable.id}/join`,
    body: () => ({}),
  },
  {
    label: "invite accept",
    actor: () => victim,
    method: "POST",
    url: () => `/api/invites/${joinable.inviteCode}/accept`,
    body: () => ({}),
  },
  {
    label: "lesson complete",
    actor: () => w.owner,
    method: "POST",
    url: () => `/api/lessons/${w.a.lessonId}/complete`,
    body: () => ({}),
  },
  {
    label: "course purchase",
    actor: () => w.member,
    method: "POST",
    url: () => `/api/courses/${w.a.courseId}/purchase`,
    body: () => ({}),
  },
  {
    label: "notification read",
    actor: () => w.member,
    method: "POST",
    url: () => `/api/notifications/${notificationId}/read`,
    body: () => ({}),
  },
  {
    label: "notifications read-all",
    actor: () => w.member,
    method: "POST",
    url: () => "/api/notifications/read-all",
    body: () => ({}),
  },
  {
    label: "unsubscribe",
    actor: () => w.member,
    method: "POST",
    url: () => "/api/notifications/unsubscribe",
    body: () => ({ token: unsubscribeToken(t.config.authSecret, w.member.id) }),
  },
  {
    label: "free trial",
    actor: () => w.member,
    method: "POST",
    url: () => "/api/billing/trial",
    body: () => ({ plan: "monthly", request_id: randomUUID() }),
  },
  {
    label: "upload reservation",
    actor: () => w.member,
    method: "POST",
    url: () => "/api/upload/presigned-url",
    body: () => ({
      fileName: "clip.mp4",
      fileType: "video/mp4",
      communityId: w.a.id,
      uploadType: "posts",
      fileSize: 1000,
    }),
  },
  // Managers: fields beyond their role's reach.
  {
    label: "community settings",
    actor: () => w.admin,
    method: "PATCH",
    url: () => `/api/communities/${w.a.id}`,
    body: () => ({ tagline: "mass" }),
    legit: ["price"],
  },
  {
    label: "categories",
    actor: () => w.admin,
    method: "PUT",
    url: () => `/api/communities/${w.a.id}/categories`,
    body: () => ({ categories: [{ name: "General", emoji: "" }] }),
    nested: () => ({ categories: [{ name: "General", emoji: "", id: SENT_ID, community_id: w.b.id, position: N }] }),
  },
  {
    label: "member role",
    actor: () => w.admin,
    method: "PATCH",
    url: () => `/api/communities/${w.a.id}/members/${w.member.id}`,
    body: () => ({ role: "member" }),
    legit: ["role"],
  },
  {
    label: "invite regenerate",
    actor: () => w.admin,
    method: "POST",
    url: () => `/api/communities/${w.a.id}/invite/regenerate`,
    body: () => ({}),
  },
  {
    label: "pin",
    actor: () => w.moderator,
    method: "POST",
    url: () => `/api/posts/${w.a.postId}/pin`,
    body: () => ({ pinned: true }),
    legit: ["pinned"],
  },
  {
    label: "review",
    actor: () => w.moderator,
    method: "POST",
    url: () => `/api/posts/${pendingPostId}/review`,
    body: () => ({ approve: true }),
  },
  {
    label: "warn",
    actor: () => w.moderator,
    method: "POST",
    url: () => `/api/posts/${memberPostId}/warn`,
    body: () => ({ reason: "mass" }),
  },
  {
    label: "course create",
    actor: () => w.admin,
    method: "POST",
    url: () => `/api/communities/${w.a.id}/courses`,
    body: () => ({ title: "Mass", description: "Mass" }),
    legit: ["price"],
  },
  {
    label: "course edit",
    actor: () => w.admin,
    method: "PATCH",
    url: () => `/api/courses/${w.a.courseId}`,
    body: () => ({ title: "Mass edit" }),
    legit: ["price"],
  },
  {
    label: "module create",
    actor: () => w.admin,
    method: "POST",
    url: () => `/api/courses/${w.a.courseId}/modules`,
    body: () => ({ title: "Mass module" }),
  },
  {
    label: "module edit",
    actor: () => w.admin,
    method: "PATCH",
    url: () => `/api/modules/${w.a.moduleId}`,
    body: () => ({ title: "Mass module edit" }),
  },
  {
    label: "lesson create",
    actor: () => w.admin,
    method: "POST",
    url: () => `/api/modules/${w.a.moduleId}/lessons`,
    body: () => ({ title: "Mass lesson", video_url: YT }),
  },
  {
    label: "lesson edit",
    actor: () => w.admin,
    method: "PATCH",
    url: () => `/api/lessons/${w.a.lessonId}`,
    body: () => ({ title: "Mass lesson edit" }),
  },
  {
    label: "course order",
    actor: () => w.admin,
    method: "PUT",
    url: () => `/api/communities/${w.a.id}/courses/order`,
    body: courseOrder,
  },
  {
    label: "ban",
    actor: () => w.admin,
    method: "POST",
    url: () => `/api/communities/${w.a.id}/bans`,
    body: () => ({ user_id: victim.id, reason: "mass" }),
  },
];

describe("A4: mass assignment on every write route that takes a body", () => {
  it("the checker finds a planted value in an added or changed row, and ignores unchanged ones", () => {
    const before: Snapshot = new Map([["posts:1", JSON.stringify({ id: 1, likes_count: N, title: "x" })]]);
    expect(planted(before, new Map(before))).toEqual([]);
    const after: Snapshot = new Map([
      ["posts:1", JSON.stringify({ id: 1, likes_count: N, title: "y", author_id: w.outsider.id })],
      ["posts:2", JSON.stringify({ id: 2, price: `${N}.00` })],
    ]);
    expect(planted(before, after)).toEqual([`posts:1.author_id = ${w.outsider.id}`, `posts:2.price = ${N}.00`]);
  });

  it("each extra field is refused or ignored, and nothing stored holds one", async () => {
    const report: string[] = [];
    const problems: string[] = [];
    for (const c of CASES) {
      courseIds = (
        await t.database.pool.query(`SELECT id FROM courses WHERE community_id = $1 ORDER BY order_index`, [w.a.id])
      ).rows.map((r) => r.id as string);
      const base = c.body();
      const all = { ...extras(), ...base, ...c.nested?.() };
      for (const key of c.legit ?? []) if (!(key in base)) delete all[key];
      const before = await snapshot();
      const res = await h[c.method.toLowerCase() as "post" | "put" | "patch"](c.url(), all, {
        cookie: c.actor().cookie,
      });
      if (res.status === 400) {
        // Refused: nothing changed, and the body without the extras is accepted.
        if (planted(before, await snapshot()).length) problems.push(`${c.label}: changed rows on a 400`);
        const plain = await h[c.method.toLowerCase() as "post" | "put" | "patch"](c.url(), base, {
          cookie: c.actor().cookie,
        });
        if (plain.status >= 300)
          problems.push(`${c.label}: the plain body failed too (${plain.status} ${JSON.stringify(plain.body)})`);
        report.push(`${c.label}: refused`);
      } else if (res.status < 300) {
        for (const p of planted(before, await snapshot())) problems.push(`${c.label}: ${p}`);
        report.push(`${c.label}: ignored`);
      } else {
        problems.push(`${c.label}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    console.info(report.join("; "));
    expect(problems).toEqual([]);
  });

  it("roles, flags and counters are what the actions alone made them", async () => {
    const role = async (communityId: string, userId: string) =>
      (
        await t.database.pool.query(`SELECT role FROM community_members WHERE community_id = $1 AND user_id = $2`, [
          communityId,
          userId,
        ])
      ).rows[0]?.role;
    expect(await role(w.a.id, w.member.id)).toBe("member");
    expect(await role(w.a.id, w.admin.id)).toBe("admin");
    expect(await role(joinable.id, w.member.id)).toBe("member");
    expect(await role(joinable.id, victim.id)).toBe("member");
    const posts = (
      await t.database.pool.query(
        `SELECT content, is_approved, is_pinned FROM posts WHERE author_id = $1 AND content = 'mass post'`,
        [w.member.id],
      )
    ).rows;
    expect(posts).toEqual([{ content: "mass post", is_approved: false, is_pinned: false }]);
    const community = (
      await t.database.pool.query(
        `SELECT created_by, member_count, (SELECT count(*)::int FROM community_members m WHERE m.community_id = c.id) AS rows
           FROM communities c WHERE id = $1`,
        [w.a.id],
      )
    ).rows[0];
    expect(community.created_by).toBe(w.owner.id);
    // Owner, admin, moderator and member (the victim was banned by the last case).
    expect(community).toMatchObject({ member_count: 4, rows: 4 });
    const user = (await t.database.pool.query(`SELECT email_verified FROM "user" WHERE id = $1`, [w.outsider.id]))
      .rows[0];
    expect(user.email_verified).toBe(true);
  });
});
