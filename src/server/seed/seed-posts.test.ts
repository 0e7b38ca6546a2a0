import { sql } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "#shared/limits";
import { videoEmbed } from "#shared/posts";
import { api, sessionCookie } from "#server/test/harness";
import { GROWTH_LAB_POSTS_TOTAL } from "./posts";
import { DEMO_PASSWORD } from "./content/accounts.data";
import { list, query, t, userId, useSeededApp } from "./seed.test-helpers";

useSeededApp();

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
