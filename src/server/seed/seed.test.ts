import { sql } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { COMMUNITY_CATEGORIES, COMMUNITY_LIMITS, ONBOARDING_TASKS, slugify } from "#shared/communities";
import { LIMITS } from "#shared/limits";
import { grantUrl } from "#server/lib/media-grant";
import { api, sessionCookie } from "#server/test/harness";
import { DEMO_PASSWORD } from "./content/accounts.data";
import { seedDemo } from "./seed";
import { list, logged, query, seedMs, t, userId, useSeededApp } from "./seed.test-helpers";

useSeededApp();

describe("demo seed", () => {
  it("is quick and says what it made", () => {
    console.log(`seedDemo took ${Math.round(seedMs)} ms`);
    // About 1-2 s on a small machine; the bound only catches a return to row-by-row inserts.
    expect(seedMs).toBeLessThan(15_000);
    expect(logged.join("\n")).toMatch(/owner@hearth\.test.*\d+ communities.*\d+ posts, \d+ comments, \d+ likes/);
  });

  it("makes at least 24 communities over all seven categories, with valid fields", () => {
    expect(list.length).toBeGreaterThanOrEqual(24);
    expect(new Set(list.map((c) => c.category))).toEqual(new Set(COMMUNITY_CATEGORIES.map((c) => c.id)));
    for (const c of list) {
      expect(c.name.length).toBeLessThanOrEqual(LIMITS.communityNameMax);
      expect(c.description.length).toBeGreaterThan(0);
      expect(c.description.length).toBeLessThanOrEqual(LIMITS.communityDescriptionMax);
      expect(c.tagline.length).toBeLessThanOrEqual(COMMUNITY_LIMITS.taglineMax);
      expect(c.slug).toBe(slugify(c.name));
      expect(c.rules.length).toBeGreaterThan(0);
      expect(c.rules.length).toBeLessThanOrEqual(COMMUNITY_LIMITS.rulesMax);
      for (const rule of c.rules) expect(rule.length).toBeLessThanOrEqual(COMMUNITY_LIMITS.ruleMax);
      expect(c.categories).toBeGreaterThanOrEqual(2);
      expect(c.categories).toBeLessThanOrEqual(5);
      // 16 random bytes as base64url: 22 characters.
      expect(c.invite_code).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(c.creator_name.length).toBeGreaterThan(0);
    }
    expect(new Set(list.map((c) => c.invite_code)).size).toBe(list.length);
  });

  it("has paid and private communities, and one with more than 1,000 real members", () => {
    const paid = list.filter((c) => c.type === "paid");
    expect(paid.length).toBeGreaterThanOrEqual(1);
    for (const c of paid) expect(Number(c.price)).toBeGreaterThan(0);
    expect(list.filter((c) => c.visibility === "private").length).toBeGreaterThanOrEqual(1);
    const big = list.filter((c) => c.member_count > 1000);
    expect(big.length).toBeGreaterThanOrEqual(1);
    expect(big[0].online).toBeGreaterThan(1);
  });

  it("keeps member_count equal to the member rows, with the creator as the one owner row", () => {
    for (const c of list) {
      expect(c.member_count, c.name).toBe(c.rows);
      expect(c.owner_rows, c.name).toBe(1);
      expect(c.owner_is_creator, c.name).toBe(true);
    }
  });

  it("spreads roles, invites and activity", async () => {
    const [roles] = await query<{ admins: number; moderators: number; invited: number; never: number }>(sql`
      select count(*) filter (where role = 'admin')::int as admins,
             count(*) filter (where role = 'moderator')::int as moderators,
             count(*) filter (where joined_via_invite)::int as invited,
             count(*) filter (where last_active_at is null)::int as never
      from community_members`);
    expect(roles.admins).toBeGreaterThan(5);
    expect(roles.moderators).toBeGreaterThan(5);
    expect(roles.invited).toBeGreaterThan(5);
    expect(roles.never).toBeGreaterThan(0);
    const [early] = await query<{ n: number }>(sql`
      select count(*)::int as n from community_members m
      join communities c on c.id = m.community_id join "user" u on u.id = m.user_id
      where m.joined_at < c.created_at or m.joined_at < u.created_at or m.last_active_at < m.joined_at`);
    expect(early.n).toBe(0);
    const [people] = await query<{ users: number; profiles: number; credentials: number }>(sql`
      select (select count(*)::int from "user") as users,
             (select count(*)::int from user_profiles) as profiles,
             (select count(*)::int from account where provider_id = 'credential') as credentials`);
    expect(people.users).toBeGreaterThan(1000);
    expect(people.profiles).toBe(people.users);
    // Only the two demo accounts can sign in.
    expect(people.credentials).toBe(2);
  });

  it("gives owner@hearth.test its communities: paid, private, and one still being set up", () => {
    const own = list.filter((c) => c.owner_email === "owner@hearth.test");
    expect(own.length).toBeGreaterThanOrEqual(3);
    expect(own.some((c) => c.type === "paid")).toBe(true);
    expect(own.some((c) => c.visibility === "private")).toBe(true);
    const settingUp = own.filter((c) => !c.onboarding_completed);
    expect(settingUp).toHaveLength(1);
    expect(settingUp[0].onboarding_tasks_completed).toEqual(["description"]);
    const allTasks = ONBOARDING_TASKS.map((task) => task.id).sort();
    for (const c of list.filter((x) => x.onboarding_completed)) {
      expect([...c.onboarding_tasks_completed].sort()).toEqual(allTasks);
    }
  });

  it("makes member@hearth.test a member, a moderator, and an outsider where the demo needs one", async () => {
    const max = await userId("member@hearth.test");
    const mine = await query<{ community_id: string; role: string }>(
      sql`select community_id, role from community_members where user_id = ${max}`,
    );
    expect(mine.length).toBeGreaterThanOrEqual(3);
    expect(mine.some((m) => m.role === "moderator")).toBe(true);
    const joined = new Set(mine.map((m) => m.community_id));
    expect(list.some((c) => c.visibility === "public" && !joined.has(c.id))).toBe(true);
    const privates = list.filter((c) => c.visibility === "private");
    expect(privates.every((c) => !joined.has(c.id))).toBe(true);
  });

  it("serves every icon and cover through /media", async () => {
    const http = api(t.app);
    let icons = 0;
    for (const c of list) {
      expect(c.image_url).toBe(c.cover_url);
      for (const url of [c.icon_url, c.cover_url]) {
        if (!url) continue;
        expect(url).toMatch(new RegExp(`^/media/community-assets/${c.id}/(icon-\\d+\\.svg|cover-\\d+\\.webp)$`));
        let res = await http.get(url);
        if (c.visibility === "private") {
          // A private community's pictures reach members only (or an invite page's expiring grant).
          expect(res.status, url).toBe(404);
          res = await http.get(grantUrl(t.config.authSecret, url)!);
        }
        expect(res.status, url).toBe(200);
        expect(String(res.headers["content-type"])).toMatch(/^image\//);
        if (url.endsWith(".webp")) {
          const meta = await sharp(res.raw.rawPayload).metadata();
          expect([meta.format, meta.width, meta.height]).toEqual(["webp", 1084, 576]);
        } else {
          icons++;
          const svg = res.raw.body;
          expect(svg).toMatch(/^<svg /);
          expect(svg).not.toMatch(/<script|href=|<style|<foreignObject|on[a-z]+=/i);
        }
      }
    }
    // Only the community still being set up has no pictures yet.
    expect(icons).toBe(list.length - 1);
  });

  it("lets both demo accounts sign in", async () => {
    for (const email of ["owner@hearth.test", "member@hearth.test"]) {
      const res = await api(t.app).post("/api/auth/sign-in/email", { email, password: DEMO_PASSWORD });
      expect(res.status, email).toBe(200);
      expect(sessionCookie(res.headers)).toContain("session_token=");
    }
  });

  it("gives both demo accounts recent notifications from their seeded activity, newest unread, nothing to mail", async () => {
    for (const email of ["owner@hearth.test", "member@hearth.test"]) {
      const res = await api(t.app).post("/api/auth/sign-in/email", { email, password: DEMO_PASSWORD });
      const cookie = sessionCookie(res.headers);
      const list = await api(t.app).get("/api/notifications?limit=50", { cookie });
      expect(list.status).toBe(200);
      const items = list.body.items as { type: string; title: string; href: string; is_read: boolean }[];
      expect(items.length, email).toBeGreaterThanOrEqual(5);
      expect(new Set(items.map((n) => n.type)).size, email).toBeGreaterThanOrEqual(2);
      expect(items.every((n) => n.href.startsWith("/community/"))).toBe(true);
      expect(list.body.unread_count, email).toBeGreaterThan(0);
      expect(list.body.unread_count, email).toBeLessThan(items.length);
    }
    const [{ n }] = await query<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM jobs WHERE queue = 'notifications.digest'`);
    expect(n).toBe(0);
  });

  it("does nothing the second time", async () => {
    const count = async () =>
      (
        await query<{ users: number; communities: number; members: number; posts: number; likes: number }>(sql`
          select (select count(*)::int from "user") as users, (select count(*)::int from communities) as communities,
                 (select count(*)::int from community_members) as members,
                 (select count(*)::int from posts) as posts, (select count(*)::int from post_likes) as likes`)
      )[0];
    const before = await count();
    expect(await seedDemo({ db: t.database.db, storage: t.app.ctx.storage, log: { info: () => {} } })).toBe(false);
    expect(await count()).toEqual(before);
  });
});
