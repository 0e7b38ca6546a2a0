import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMUNITY_CATEGORIES, COMMUNITY_LIMITS, ONBOARDING_TASKS, slugify } from "#shared/communities";
import { COURSE_MESSAGES, lessonVideo, progressLabel } from "#shared/courses";
import { LIMITS } from "#shared/limits";
import { videoEmbed } from "#shared/posts";
import { grantUrl } from "#server/lib/media-grant";
import { api, createTestApp, sessionCookie, type TestApp } from "#server/test/harness";
import { DEMO_VIDEO_FILE, DEMO_VIDEO_SECONDS } from "./courses";
import { DEMO_COURSES } from "./content/courses.data";
import { GROWTH_LAB_POSTS_TOTAL } from "./posts";
import { DEMO_PASSWORD } from "./content/accounts.data";
import { seedDemo } from "./seed";

type Row = Record<string, unknown>;
type CommunityRow = {
  id: string;
  name: string;
  slug: string;
  description: string;
  tagline: string;
  category: string;
  type: string;
  price: string;
  visibility: string;
  member_count: number;
  rows: number;
  icon_url: string | null;
  cover_url: string | null;
  image_url: string | null;
  invite_code: string;
  rules: string[];
  created_by: string;
  creator_name: string;
  onboarding_completed: boolean;
  onboarding_tasks_completed: string[];
  owner_email: string;
  owner_rows: number;
  owner_is_creator: boolean;
  categories: number;
  online: number;
};

let t: TestApp;
let seedMs = 0;
let list: CommunityRow[];
const logged: string[] = [];
const query = async <T = Row>(q: ReturnType<typeof sql>) => (await t.database.db.execute(q)).rows as T[];
const userId = async (email: string) =>
  (await query<{ id: string }>(sql`select id from "user" where email = ${email}`))[0].id;

beforeAll(async () => {
  t = await createTestApp();
  const started = performance.now();
  const seeded = await seedDemo({
    db: t.database.db,
    storage: t.app.ctx.storage,
    log: { info: (m) => logged.push(m) },
  });
  seedMs = performance.now() - started;
  expect(seeded).toBe(true);
  list = await query<CommunityRow>(sql`
    select c.*, u.email as owner_email,
      (select count(*)::int from community_members m where m.community_id = c.id) as rows,
      (select count(*)::int from community_members m where m.community_id = c.id and m.role = 'owner') as owner_rows,
      exists (select 1 from community_members m where m.community_id = c.id and m.role = 'owner'
              and m.user_id = c.created_by) as owner_is_creator,
      (select count(*)::int from post_categories p where p.community_id = c.id) as categories,
      (select count(*)::int from community_members m where m.community_id = c.id
         and m.last_active_at > now() - make_interval(mins => ${COMMUNITY_LIMITS.onlineWindowMinutes})) as online
    from communities c join "user" u on u.id = c.created_by`);
}, 60_000);
afterAll(() => t.close());

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

type PostRow = {
  id: string;
  community_id: string;
  author_id: string;
  type: string;
  content: string;
  visibility: string;
  is_approved: boolean;
  is_pinned: boolean;
  likes_count: number;
  comments_count: number;
  media_urls: { type: string; url: string; medium?: string; thumbnail?: string }[];
  poll_data: {
    options: { id: string; text: string; votes: number }[];
    duration_hours: number;
    expires_at: string | null;
    total_votes: number;
  } | null;
  link_preview: { url: string; title: string; description: string; image: string | null } | null;
  created_at: string;
  likes: number;
  live_comments: number;
  slug: string;
};

describe("demo posts", () => {
  let all: PostRow[];
  const bySlug = (slug: string) => all.filter((p) => p.slug === slug);
  const count = async (q: ReturnType<typeof sql>) => (await query<{ n: number }>(q))[0].n;

  beforeAll(async () => {
    all = await query<PostRow>(sql`
      select p.*, c.slug,
        (select count(*)::int from post_likes l where l.post_id = p.id) as likes,
        (select count(*)::int from comments k where k.post_id = p.id and k.deleted_at is null) as live_comments
      from posts p join communities c on c.id = p.community_id`);
  });

  it("has every post type, and more than 1,000 posts in Creator Growth Lab", () => {
    expect(new Set(all.map((p) => p.type))).toEqual(new Set(["text", "image", "video", "poll", "link"]));
    const lab = bySlug("creator-growth-lab");
    expect(lab.length).toBe(GROWTH_LAB_POSTS_TOTAL);
    expect(lab.length).toBeGreaterThan(1000);
    for (const type of ["text", "image", "video", "poll", "link"]) {
      expect(
        lab.some((p) => p.type === type),
        type,
      ).toBe(true);
    }
    const pinned = lab.filter((p) => p.is_pinned);
    expect(pinned.length).toBeGreaterThan(0);
    expect(pinned.length).toBeLessThanOrEqual(5);
    expect(lab.filter((p) => p.visibility === "members").length).toBeGreaterThan(10);
    expect(lab.filter((p) => p.visibility === "admins").length).toBeGreaterThanOrEqual(2);
    // Spread over about four months.
    const ages = lab.map((p) => (Date.now() - Date.parse(p.created_at)) / 86_400_000);
    expect(Math.max(...ages)).toBeGreaterThan(100);
    expect(Math.max(...ages)).toBeLessThanOrEqual(121);
    expect(ages.filter((a) => a < 7).length).toBeGreaterThan(30);
    // Templates combined: almost every post reads differently.
    expect(new Set(lab.map((p) => p.content)).size).toBeGreaterThan(lab.length * 0.9);
  });

  it("gives every other community posts: 5 to 30, none in the one still being set up", () => {
    for (const c of list) {
      const n = bySlug(c.slug).length;
      if (c.slug === "creator-growth-lab") continue;
      if (!c.onboarding_completed) expect(n, c.name).toBe(0);
      else {
        expect(n, c.name).toBeGreaterThanOrEqual(5);
        expect(n, c.name).toBeLessThanOrEqual(30);
      }
      expect(bySlug(c.slug).filter((p) => p.is_pinned).length, c.name).toBeLessThanOrEqual(5);
    }
    expect(list.filter((c) => c.visibility === "private").every((c) => bySlug(c.slug).length > 0)).toBe(true);
  });

  it("keeps likes_count, comments_count and post_count equal to the rows", async () => {
    for (const p of all) {
      expect(p.likes_count, p.id).toBe(p.likes);
      expect(p.comments_count, p.id).toBe(p.live_comments);
    }
    expect(
      await count(sql`select count(*)::int as n from comments c
        where c.likes_count <> (select count(*) from comment_likes l where l.comment_id = c.id)`),
    ).toBe(0);
    const counts = await query<{ name: string; post_count: number; real: number }>(sql`
      select c.name, c.post_count,
        (select count(*)::int from posts p where p.community_id = c.id and p.is_approved and p.deleted_at is null) as real
      from communities c`);
    for (const c of counts) expect(c.post_count, c.name).toBe(c.real);
  });

  it("has thousands of likes in Creator Growth Lab, so its leaderboard has real standings", async () => {
    const lab = bySlug("creator-growth-lab");
    expect(lab.reduce((sum, p) => sum + p.likes, 0)).toBeGreaterThan(5000);
    for (const period of ["7d", "30d", "all"]) {
      const res = await api(t.app).get(`/api/communities/creator-growth-lab/leaderboard?period=${period}&limit=20`);
      expect(res.status, period).toBe(200);
      const items = res.body.items as { points: number; rank: number }[];
      expect(items.length, period).toBe(20);
      expect(items[0].points, period).toBeGreaterThan(items[19].points);
      expect(new Set(items.map((i) => i.rank)).size, period).toBeGreaterThan(5);
    }
  });

  it("keeps every poll's totals equal to its votes, with open, ended and unlimited polls", async () => {
    const polls = all.filter((p) => p.type === "poll");
    const votes = await query<{ post_id: string; option_index: number; n: number }>(sql`
      select post_id, option_index, count(*)::int as n from poll_votes group by post_id, option_index`);
    const now = Date.now();
    for (const p of polls) {
      const poll = p.poll_data!;
      const mine = votes.filter((v) => v.post_id === p.id);
      expect(poll.total_votes, p.id).toBe(mine.reduce((sum, v) => sum + v.n, 0));
      poll.options.forEach((o, i) =>
        expect(o.votes, `${p.id} option ${i}`).toBe(mine.find((v) => v.option_index === i)?.n ?? 0),
      );
      expect(mine.every((v) => v.option_index < poll.options.length)).toBe(true);
      expect(poll.expires_at === null).toBe(poll.duration_hours === 0);
    }
    const open = polls.filter((p) => p.poll_data!.expires_at && Date.parse(p.poll_data!.expires_at) > now);
    const ended = polls.filter((p) => p.poll_data!.expires_at && Date.parse(p.poll_data!.expires_at) <= now);
    const unlimited = polls.filter((p) => p.poll_data!.expires_at === null);
    expect(open.some((p) => p.poll_data!.duration_hours === 168 && p.poll_data!.total_votes > 0)).toBe(true);
    expect(ended.some((p) => p.poll_data!.total_votes > 0)).toBe(true);
    expect(unlimited.some((p) => p.poll_data!.total_votes > 0)).toBe(true);
    // Votes fall inside the poll's window.
    expect(
      await count(sql`select count(*)::int as n from poll_votes v join posts p on p.id = v.post_id
        where v.created_at < p.created_at or v.created_at > now()
           or (p.poll_data->>'expires_at' is not null and v.created_at > (p.poll_data->>'expires_at')::timestamptz)`),
    ).toBe(0);
  });

  it("stores every image post's pictures and serves them through /media", async () => {
    const cookies = new Map<string, string>();
    const ownerCookie = async (email: string) => {
      if (!cookies.has(email)) {
        const res = await api(t.app).post("/api/auth/sign-in/email", { email, password: DEMO_PASSWORD });
        expect(res.status, email).toBe(200);
        cookies.set(email, sessionCookie(res.headers));
      }
      return cookies.get(email);
    };
    const images = all.filter((p) => p.type === "image");
    expect(images.length).toBeGreaterThanOrEqual(3);
    expect(images.some((p) => p.media_urls.length >= 5)).toBe(true);
    const http = api(t.app);
    const sizes = { "": [1200, 900], "-medium": [800, 600], "-thumbnail": [200, 200] } as const;
    let pictures = 0;
    for (const p of images) {
      expect(p.media_urls.length).toBeGreaterThan(0);
      for (const m of p.media_urls) {
        pictures++;
        expect(m.type).toBe("image");
        const base = m.url.replace(/\.webp$/, "");
        expect(m.url).toMatch(new RegExp(`^/media/community-assets/${p.community_id}/posts/[0-9a-f-]{36}\\.webp$`));
        expect([m.medium, m.thumbnail]).toEqual([`${base}-medium.webp`, `${base}-thumbnail.webp`]);
        const c = list.find((x) => x.id === p.community_id)!;
        // What a reader of the post may see: a members' or a private community's post needs a member.
        const cookie =
          c.visibility === "private" || p.visibility !== "public" ? await ownerCookie(c.owner_email) : undefined;
        for (const [suffix, [width, height]] of Object.entries(sizes)) {
          const res = await http.get(`${base}${suffix}.webp`, { cookie });
          expect(res.status, `${base}${suffix}`).toBe(200);
          expect(res.headers["content-type"]).toBe("image/webp");
          const meta = await sharp(res.raw.rawPayload).metadata();
          expect([meta.format, meta.width, meta.height]).toEqual(["webp", width, height]);
        }
      }
    }
    expect(pictures).toBeLessThanOrEqual(12);
    // Recorded like uploads.
    expect(await count(sql`select count(*)::int as n from media_files where purpose = 'post'`)).toBe(pictures);
  });

  it("links videos to YouTube or Vimeo and keeps link previews to text (no hotlinked images)", () => {
    const videos = all.filter((p) => p.type === "video");
    expect(videos.length).toBeGreaterThan(0);
    for (const p of videos) {
      expect(p.media_urls).toHaveLength(1);
      expect(videoEmbed(p.media_urls[0].url)?.kind, p.media_urls[0].url).toMatch(/^(youtube|vimeo)$/);
    }
    expect(new Set(videos.map((p) => videoEmbed(p.media_urls[0].url)!.kind))).toEqual(new Set(["youtube", "vimeo"]));
    const links = all.filter((p) => p.type === "link");
    expect(links.length).toBeGreaterThan(0);
    for (const p of links) {
      const preview = p.link_preview!;
      expect(preview.url).toMatch(/^https:\/\//);
      expect(preview.title.length).toBeGreaterThan(0);
      expect(preview.description.length).toBeGreaterThan(0);
      expect(preview.image === null || preview.image.startsWith("/media/")).toBe(true);
      expect(p.content).toContain(preview.url);
    }
    for (const p of all.filter((x) => x.type !== "link")) expect(p.link_preview).toBeNull();
    for (const p of all.filter((x) => x.type !== "poll")) expect(p.poll_data).toBeNull();
  });

  it("leaves a pending post for owner@hearth.test to approve", async () => {
    const olivia = await userId("owner@hearth.test");
    const pending = await query<{ id: string; likes_count: number; comments_count: number }>(sql`
      select p.id, p.likes_count, p.comments_count from posts p join communities c on c.id = p.community_id
      where not p.is_approved and p.deleted_at is null and c.moderation_enabled and c.created_by = ${olivia}
        and p.author_id <> ${olivia}
        -- A plain member wrote it: a moderator's post would not need approval.
        and exists (select 1 from community_members m where m.community_id = p.community_id
                      and m.user_id = p.author_id and m.role = 'member')`);
    expect(pending.length).toBeGreaterThanOrEqual(1);
    for (const p of pending) expect([p.likes_count, p.comments_count]).toEqual([0, 0]);
    const signIn = await api(t.app).post("/api/auth/sign-in/email", {
      email: "owner@hearth.test",
      password: DEMO_PASSWORD,
    });
    const res = await api(t.app).get("/api/communities/creator-growth-lab/posts/pending", {
      cookie: sessionCookie(signIn.headers),
    });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(pending.length);
  });

  it("has the demo accounts writing, liking, saving, voting and commenting", async () => {
    for (const email of ["owner@hearth.test", "member@hearth.test"]) {
      const id = await userId(email);
      const [mine] = await query<{ posts: number; likes: number; saves: number; votes: number; comments: number }>(sql`
        select (select count(*)::int from posts where author_id = ${id}) as posts,
               (select count(*)::int from post_likes where user_id = ${id}) as likes,
               (select count(*)::int from saved_posts where user_id = ${id}) as saves,
               (select count(*)::int from poll_votes where user_id = ${id}) as votes,
               (select count(*)::int from comments where author_id = ${id}) as comments`);
      expect(mine.posts, email).toBeGreaterThan(1);
      expect(mine.likes, email).toBeGreaterThan(5);
      expect(mine.saves, email).toBeGreaterThan(0);
      expect(mine.votes, email).toBeGreaterThan(0);
      expect(mine.comments, email).toBeGreaterThan(0);
      // Their likes have them appear as liked in the feed (one query per page, the viewer's own state).
      const signIn = await api(t.app).post("/api/auth/sign-in/email", { email, password: DEMO_PASSWORD });
      const res = await api(t.app).get("/api/me/saved", { cookie: sessionCookie(signIn.headers) });
      expect(res.status).toBe(200);
      expect(res.body.items.length, email).toBe(mine.saves);
    }
    // An open poll is left for the demo accounts to vote in.
    const demo = [await userId("owner@hearth.test"), await userId("member@hearth.test")];
    const [lab] = await query<{ n: number }>(sql`
      select count(*)::int as n from posts p join communities c on c.id = p.community_id
      where c.slug = 'creator-growth-lab' and p.type = 'poll' and (p.poll_data->>'expires_at')::timestamptz > now()
        and not exists (select 1 from poll_votes v where v.post_id = p.id and v.user_id in (${demo[0]}, ${demo[1]}))`);
    expect(lab.n).toBeGreaterThan(0);
  });

  it("has comments with one level of replies, and believable timestamps throughout", async () => {
    const [c] = await query<{ comments: number; replies: number; deep: number; stray: number }>(sql`
      select count(*)::int as comments,
             count(*) filter (where parent_id is not null)::int as replies,
             count(*) filter (where parent_id in (select id from comments where parent_id is not null))::int as deep,
             count(*) filter (where parent_id is not null and not exists (
               select 1 from comments p where p.id = comments.parent_id and p.post_id = comments.post_id))::int as stray
      from comments`);
    expect(c.comments).toBeGreaterThan(2000);
    expect(c.replies).toBeGreaterThan(200);
    expect([c.deep, c.stray]).toEqual([0, 0]);
    expect(await count(sql`select count(*)::int as n from comment_likes`)).toBeGreaterThan(1000);
    const [bad] = await query<Record<string, number>>(sql`
      select
        (select count(*)::int from post_likes l join posts p on p.id = l.post_id
          where l.created_at < p.created_at or l.created_at > now() or l.user_id = p.author_id) as likes,
        (select count(*)::int from saved_posts s join posts p on p.id = s.post_id
          where s.created_at < p.created_at or s.created_at > now()) as saves,
        (select count(*)::int from comments k join posts p on p.id = k.post_id
          where k.created_at < p.created_at or k.created_at > now() or not p.is_approved) as comments,
        (select count(*)::int from comments r join comments k on k.id = r.parent_id
          where r.created_at < k.created_at) as replies,
        (select count(*)::int from comment_likes l join comments k on k.id = l.comment_id
          where l.created_at < k.created_at or l.created_at > now() or l.user_id = k.author_id) as comment_likes,
        (select count(*)::int from posts p join communities c on c.id = p.community_id
          where p.created_at < c.created_at or p.created_at > now() or p.updated_at < p.created_at) as posts,
        (select count(*)::int from posts p where p.is_approved and p.deleted_at is null and not exists (
          select 1 from community_members m where m.community_id = p.community_id and m.user_id = p.author_id
            and m.joined_at <= p.created_at)) as outsider_posts,
        (select count(*)::int from post_likes l join posts p on p.id = l.post_id where not exists (
          select 1 from community_members m where m.community_id = p.community_id and m.user_id = l.user_id
            and m.joined_at <= l.created_at)) as outsider_likes,
        (select count(*)::int from post_likes l join posts p on p.id = l.post_id
          where p.visibility = 'admins' and not exists (
          select 1 from community_members m where m.community_id = p.community_id and m.user_id = l.user_id
            and m.role in ('owner', 'admin'))) as hidden_likes,
        (select count(*)::int from posts p where p.visibility = 'admins' and not exists (
          select 1 from community_members m where m.community_id = p.community_id and m.user_id = p.author_id
            and m.role in ('owner', 'admin'))) as admin_posts,
        (select count(*)::int from post_likes l where not exists (select 1 from posts p where p.id = l.post_id)
          or not exists (select 1 from "user" u where u.id = l.user_id)) as orphan_likes,
        (select count(*)::int from comment_likes l where not exists (select 1 from comments k where k.id = l.comment_id)
          or not exists (select 1 from "user" u where u.id = l.user_id)) as orphan_comment_likes`);
    expect(bad).toEqual({
      likes: 0,
      saves: 0,
      comments: 0,
      replies: 0,
      comment_likes: 0,
      posts: 0,
      outsider_posts: 0,
      outsider_likes: 0,
      hidden_likes: 0,
      admin_posts: 0,
      orphan_likes: 0,
      orphan_comment_likes: 0,
    });
  });

  it("serves the big feed: pinned first, then newest, 50 a page", async () => {
    const res = await api(t.app).get("/api/communities/creator-growth-lab/posts");
    expect(res.status).toBe(200);
    const items = res.body.items as { is_pinned: boolean; created_at: string; visibility: string }[];
    expect(items.length).toBe(LIMITS.feedPageSize);
    const pinned = items.filter((i) => i.is_pinned).length;
    expect(pinned).toBeGreaterThan(0);
    expect(items.slice(0, pinned).every((i) => i.is_pinned)).toBe(true);
    const rest = items.slice(pinned).map((i) => Date.parse(i.created_at));
    expect(rest).toEqual([...rest].sort((a, b) => b - a));
    // Signed out: public posts only.
    expect(items.every((i) => i.visibility === "public")).toBe(true);
    expect(res.body.next_cursor).toBeTruthy();
  });
});

type CourseCard = {
  id: string;
  title: string;
  price: number;
  status: string;
  has_access: boolean;
  lessons_count: number;
  completed_count: number;
  progress: number;
};
type CourseLesson = {
  id: string;
  title: string;
  order_index: number;
  video_url: string | null;
  video_duration: number | null;
  is_preview: boolean;
  resources: { title: string; url: string }[];
  completed: boolean;
  locked: boolean;
  lock_reason: string | null;
};
type CourseDetail = {
  course: CourseCard;
  modules: { id: string; title: string; order_index: number; lessons: CourseLesson[] }[];
};

describe("demo courses", () => {
  const cookies: Record<string, string> = {};
  const as = (who: "owner" | "member") => ({ cookie: cookies[who] });
  const lessonsOf = (d: CourseDetail) => d.modules.flatMap((m) => m.lessons);
  const spec = (title: string) => DEMO_COURSES.find((c) => c.title === title)!;
  const detail = async (id: string, who?: "owner" | "member") => {
    const res = await api(t.app).get(`/api/courses/${id}`, who ? as(who) : undefined);
    expect(res.status, id).toBe(200);
    return res.body as CourseDetail;
  };
  let labAsOwner: CourseCard[];
  let labAsMember: CourseCard[];
  let free: CourseCard;
  let paid: CourseCard;
  let draft: CourseCard;

  beforeAll(async () => {
    for (const who of ["owner", "member"] as const) {
      const res = await api(t.app).post("/api/auth/sign-in/email", {
        email: `${who}@hearth.test`,
        password: DEMO_PASSWORD,
      });
      cookies[who] = sessionCookie(res.headers);
    }
    const tab = async (who: "owner" | "member") => {
      const res = await api(t.app).get("/api/communities/creator-growth-lab/courses", as(who));
      expect(res.status).toBe(200);
      return res.body.items as CourseCard[];
    };
    labAsOwner = await tab("owner");
    labAsMember = await tab("member");
    free = labAsOwner.find((c) => c.status === "published" && c.price === 0)!;
    paid = labAsOwner.find((c) => c.status === "published" && c.price > 0)!;
    draft = labAsOwner.find((c) => c.status === "draft")!;
  });

  it("gives Creator Growth Lab a free course, a paid one and a draft only its owner sees", () => {
    expect(free).toBeDefined();
    expect(paid).toBeDefined();
    expect(draft).toBeDefined();
    expect(paid.price).toBe(49);
    expect(labAsMember.map((c) => c.id)).toEqual(labAsOwner.filter((c) => c.status === "published").map((c) => c.id));
    expect(labAsOwner.every((c) => c.has_access)).toBe(true);
  });

  it("builds every course as written: modules and lessons in order, with videos, lengths and https resources", async () => {
    const all = await query<{ id: string; title: string }>(sql`select id, title from courses`);
    expect(all.length).toBe(DEMO_COURSES.length);
    for (const c of all) {
      const s = spec(c.title);
      const d = await detail(c.id, "owner");
      expect(d.modules.map((m) => m.title)).toEqual(s.modules.map((m) => m.title));
      expect(d.modules.map((m) => m.order_index)).toEqual(s.modules.map((_, i) => i));
      d.modules.forEach((m, i) => {
        expect(m.lessons.map((l) => l.title)).toEqual(s.modules[i].lessons.map((l) => l.title));
        expect(m.lessons.map((l) => l.order_index)).toEqual(m.lessons.map((_, j) => j));
      });
      // From the rows: outside its own communities owner@hearth.test sees lessons locked (no video, no resources).
      const rows = await query<CourseLesson>(sql`
        select l.title, l.video_url, l.video_duration, l.resources from course_lessons l
        join course_modules m on m.id = l.module_id where m.course_id = ${c.id}`);
      expect(rows.length).toBe(lessonsOf(d).length);
      for (const l of rows) {
        expect(lessonVideo(l.video_url!), l.title).not.toBeNull();
        expect(l.video_duration, l.title).toBeGreaterThan(0);
        for (const r of l.resources) expect(r.url, l.title).toMatch(/^https:\/\//);
      }
    }
    // The free course: 3-4 modules of 3-5 lessons each.
    const d = await detail(free.id, "owner");
    expect(d.modules.length).toBeGreaterThanOrEqual(3);
    expect(d.modules.length).toBeLessThanOrEqual(4);
    for (const m of d.modules) {
      expect(m.lessons.length, m.title).toBeGreaterThanOrEqual(3);
      expect(m.lessons.length, m.title).toBeLessThanOrEqual(5);
    }
    const kinds = new Set(lessonsOf(d).map((l) => lessonVideo(l.video_url!)!.kind));
    expect(kinds).toEqual(new Set(["file", "youtube", "vimeo"]));
  });

  it("puts a free published course in other communities too", async () => {
    const elsewhere = await query<{ slug: string }>(sql`
      select distinct c.slug from courses co join communities c on c.id = co.community_id
      where co.status = 'published' and co.price = 0 and c.slug <> 'creator-growth-lab'`);
    expect(elsewhere.length).toBeGreaterThanOrEqual(1);
    // One where member@hearth.test is a plain member, with no progress yet.
    const res = await api(t.app).get("/api/communities/python-for-data-people/courses", as("member"));
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    expect(res.body.items[0]).toMatchObject({ has_access: true, progress: 0 });
  });

  it("has member@hearth.test part-way through the free course and without the paid one", async () => {
    const mine = labAsMember.find((c) => c.id === free.id)!;
    const done = spec(free.title).memberCompleted!;
    expect(mine).toMatchObject({ has_access: true, completed_count: done });
    expect(mine.progress).toBeGreaterThan(0);
    expect(mine.progress).toBeLessThan(100);
    expect(progressLabel(mine.progress)).toBe(COURSE_MESSAGES.continueCourse);
    // The first lessons in reading order are the completed ones.
    const lessons = lessonsOf(await detail(free.id, "member"));
    expect(lessons.map((l) => l.completed)).toEqual(lessons.map((_, i) => i < done));
    const other = labAsMember.find((c) => c.id === paid.id)!;
    expect(other).toMatchObject({ has_access: false, completed_count: 0, progress: 0 });
    const max = await userId("member@hearth.test");
    const [rows] = await query<{ purchases: number; paid_completions: number }>(sql`
      select (select count(*)::int from course_purchases where user_id = ${max}) as purchases,
             (select count(*)::int from lesson_completions where user_id = ${max} and course_id = ${paid.id}) as paid_completions`);
    expect(rows).toEqual({ purchases: 0, paid_completions: 0 });
  });

  it("locks the paid course's lessons for member@hearth.test except the free preview", async () => {
    const lessons = lessonsOf(await detail(paid.id, "member"));
    const previews = lessons.filter((l) => l.is_preview);
    expect(previews.length).toBe(1);
    expect(previews[0]).toMatchObject({ locked: false, lock_reason: null });
    expect(previews[0].video_url).toMatch(/^\/media\/community-assets\/.+\.webm$/);
    const locked = lessons.filter((l) => !l.is_preview);
    expect(locked.length).toBeGreaterThan(0);
    for (const l of locked)
      expect(l, l.title).toMatchObject({ locked: true, lock_reason: "purchase", video_url: null, resources: [] });
    // The owner sees every lesson's video.
    expect(lessonsOf(await detail(paid.id, "owner")).every((l) => l.video_url)).toBe(true);
    // The draft is not there for a member at all.
    expect((await api(t.app).get(`/api/courses/${draft.id}`, as("member"))).status).toBe(404);
  });

  it("stores the shipped video once per lesson that plays it and serves it to those who may watch", async () => {
    const shipped = readFileSync(DEMO_VIDEO_FILE);
    const files = await query<{
      key: string;
      lesson_id: string;
      video_url: string;
      size: number;
      course_id: string;
    }>(sql`
      select f.key, f.lesson_id, l.video_url, f.size::int as size, m.course_id from media_files f
      join course_lessons l on l.id = f.lesson_id join course_modules m on m.id = l.module_id
      where f.purpose = 'lesson'`);
    const own = await query<{ n: number }>(sql`
      select count(*)::int as n from course_lessons where video_url like '/media/%'`);
    expect(files.length).toBe(own[0].n);
    expect(new Set(files.map((f) => f.key)).size).toBe(files.length);
    for (const f of files) {
      expect(f.video_url).toBe(`/media/${f.key}`);
      expect(f.key).toMatch(/^community-assets\/[0-9a-f-]{36}\/courses\/[0-9a-f-]{36}\.webm$/);
      expect(f.size).toBe(shipped.length);
    }
    const http = api(t.app);
    // A member of the free course watches its videos.
    const freeLessons = lessonsOf(await detail(free.id, "member")).filter((l) => l.video_url?.startsWith("/media/"));
    expect(freeLessons.length).toBeGreaterThan(0);
    for (const l of freeLessons) {
      const res = await http.get(l.video_url!, as("member"));
      expect(res.status, l.title).toBe(200);
      expect(res.headers["content-type"]).toBe("video/webm");
      expect(Buffer.compare(res.raw.rawPayload, shipped)).toBe(0);
    }
    // Players ask for ranges.
    const ranged = await http.get(freeLessons[0].video_url!, { ...as("member"), headers: { range: "bytes=0-99" } });
    expect(ranged.status).toBe(206);
    expect(ranged.raw.rawPayload.length).toBe(100);
    // Signed out: nothing.
    expect((await http.get(freeLessons[0].video_url!)).status).toBe(404);
    // The paid course: the preview plays for member@hearth.test, the other lessons' videos do not.
    const paidFiles = files.filter((f) => f.course_id === paid.id);
    const previewIds = new Set(
      lessonsOf(await detail(paid.id, "owner"))
        .filter((l) => l.is_preview)
        .map((l) => l.id),
    );
    expect(paidFiles.some((f) => previewIds.has(f.lesson_id))).toBe(true);
    expect(paidFiles.some((f) => !previewIds.has(f.lesson_id))).toBe(true);
    for (const f of paidFiles) {
      const res = await http.get(`/media/${f.key}`, as("member"));
      expect(res.status, f.key).toBe(previewIds.has(f.lesson_id) ? 200 : 404);
      expect((await http.get(`/media/${f.key}`, as("owner"))).status, f.key).toBe(200);
    }
    // The lesson length is the file's.
    expect(freeLessons.every((l) => l.video_duration === DEMO_VIDEO_SECONDS)).toBe(true);
  });
});
