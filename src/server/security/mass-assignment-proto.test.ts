// W6 (prototype pollution); the docblock, and A4, are in mass-assignment.test.ts.
import { describe, expect, it } from "vitest";
import { multipart, ORIGIN } from "#server/test/harness";
import { t, useMassAssignmentWorld, w } from "./mass-assignment.test-helpers";

useMassAssignmentWorld();

describe("W6: __proto__ and constructor.prototype keys", () => {
  const polluted = () => ({}) as Record<string, unknown>;
  const POISON = [
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '{"nested":{"__proto__":{"polluted":"yes"}}}',
    '{"community_settings":{"__proto__":{"posts":false,"polluted":"yes"}}}',
  ];
  const ROUTES: [string, string, () => string][] = [
    ["PATCH", "/api/me/profile", () => w.member.cookie],
    ["PATCH", "/api/me/notification-settings", () => w.member.cookie],
    ["POST", "/api/communities", () => w.member.cookie],
    ["PATCH", "/api/communities/{a}", () => w.owner.cookie],
    ["POST", "/api/communities/{a}/posts", () => w.member.cookie],
    ["PATCH", "/api/posts/{post}", () => w.owner.cookie],
    ["POST", "/api/posts/{post}/comments", () => w.member.cookie],
    ["POST", "/api/communities/{a}/courses", () => w.owner.cookie],
    ["POST", "/api/modules/{module}/lessons", () => w.owner.cookie],
    ["POST", "/api/upload/presigned-url", () => w.member.cookie],
    ["POST", "/api/upload/complete", () => w.member.cookie],
    ["POST", "/api/billing/trial", () => w.member.cookie],
    ["POST", "/api/auth/sign-in/email", () => ""],
    ["POST", "/api/auth/update-user", () => w.member.cookie],
  ];

  it("in JSON bodies: refused with a 400 on every route, and Object.prototype stays clean", async () => {
    const answers: string[] = [];
    for (const [method, route, cookie] of ROUTES) {
      const url = route.replace("{a}", w.a.id).replace("{post}", w.a.postId).replace("{module}", w.a.moduleId);
      for (const payload of POISON) {
        const res = await t.app.inject({
          method: method as "POST" | "PATCH",
          url,
          headers: { origin: ORIGIN, "content-type": "application/json", ...(cookie() ? { cookie: cookie() } : {}) },
          payload,
        });
        if (res.statusCode !== 400)
          answers.push(`${method} ${route} ${payload}: ${res.statusCode} ${res.body.slice(0, 100)}`);
        expect(polluted().polluted, `${route} ${payload}`).toBeUndefined();
      }
    }
    expect(answers).toEqual([]);
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted")).toBe(false);
  });

  it("in query strings and multipart fields: ignored, and Object.prototype stays clean", async () => {
    for (const url of [
      `/api/communities?__proto__[polluted]=yes&constructor[prototype][polluted]=yes`,
      `/api/communities?__proto__.polluted=yes`,
      `/api/communities/${w.a.id}/posts?__proto__=x&constructor=y`,
      `/api/notifications?filter=all&__proto__[polluted]=yes`,
    ]) {
      const res = await t.app.inject({ method: "GET", url, headers: { cookie: w.member.cookie } });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(polluted().polluted, url).toBeUndefined();
    }
    const png = Buffer.from("89504e470d0a1a0a", "hex");
    for (const names of [
      ["__proto__"],
      ["constructor[prototype][polluted]"],
      ["__proto__[polluted]"],
      ["constructor"],
    ]) {
      // JSON.parse makes "__proto__" an own key (an object literal would set the prototype).
      const fields = JSON.parse(
        JSON.stringify({ communityId: w.a.id, uploadType: "posts" }).replace(
          "{",
          `{${names.map((n) => `"${n}":"yes",`).join("")}`,
        ),
      ) as Record<string, string>;
      expect(Object.keys(fields)).toContain(names[0]);
      const body = multipart("a.png", "image/png", png, fields);
      const res = await t.app.inject({
        method: "POST",
        url: "/api/upload",
        headers: { origin: ORIGIN, cookie: w.member.cookie, "content-type": body.contentType },
        payload: body.payload,
      });
      expect(res.statusCode).toBeLessThan(500);
      expect(polluted().polluted).toBeUndefined();
    }
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted")).toBe(false);
  });
});
