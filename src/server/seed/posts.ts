import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import {
  commentLikes,
  comments,
  mediaFiles,
  pollVotes,
  postLikes,
  posts,
  savedPosts,
  type LinkPreview,
  type MediaItem,
  type PollData,
} from "#server/db/schema/index";
import type { Storage } from "#server/lib/storage";
import { ROLE_RANK } from "#shared/roles";
import { postPictureSvg, prng, renderPostPicture, type PictureVariants } from "./art";
import { insertMany, type DemoAccount, type Person, type SeededCommunity, type Tx } from "./communities";
import {
  COMMENTS,
  COMMUNITY_POSTS,
  DEMO_PICTURES,
  GROWTH,
  GROWTH_LAB_POSTS,
  GROWTH_LAB_SLUG,
  MILESTONES,
  NICHES,
  PLATFORMS,
  REPLIES,
  type PollSpec,
  type PostSpec,
  type Tone,
} from "./post-content";

/**
 * Demo posts: Creator Growth Lab gets 1,200 posts over the last 120 days put together from
 * templates, every other community a handful of hand-written ones; then likes, saves, poll votes,
 * comments with replies and comment likes from their members, at believable times (always after
 * what they react to). Every counter is computed here and written with the rows, so the seed's
 * likes go in with the like triggers off (see insertLikes); everything else is a few bulk statements.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Creator Growth Lab's size: more than 1,000 posts, so its feed and leaderboards have real depth. */
export const GROWTH_LAB_POSTS_TOTAL = 1200;
const GROWTH_LAB_DAYS = 120;

export type PostPictures = Record<string, PictureVariants>;

/** The image posts' pictures (ten, with their variants). */
export async function renderPostPictures(): Promise<PostPictures> {
  const entries = await Promise.all(
    Object.entries(DEMO_PICTURES).map(
      async ([key, p]) =>
        [key, await renderPostPicture(postPictureSvg({ kind: p.kind, hue: p.hue, seed: p.seed }))] as const,
    ),
  );
  return Object.fromEntries(entries);
}

type Member = { id: string; joined: number; rank: number };

type Draft = {
  id: string;
  communityId: string;
  authorId: string;
  categoryId: string | null;
  content: string;
  type: "text" | "image" | "video" | "poll" | "link";
  visibility: "public" | "members" | "admins";
  approved: boolean;
  pinned: boolean;
  edited: boolean;
  at: number;
  media: MediaItem[];
  poll: PollData | null;
  /** The demo accounts' votes, from the content. */
  pollVotes?: PollSpec["votes"];
  link: LinkPreview | null;
  tone: Tone;
  buzz: number;
  likes: number;
  comments: number;
  shares: number;
};

type LikeRow = { postId: string; userId: string; at: number };
type CommentLikeRow = { commentId: string; userId: string; at: number };
type CommentRow = {
  id: string;
  postId: string;
  parentId: string | null;
  authorId: string;
  content: string;
  at: number;
  likes: number;
};

export type PostSeedResult = { posts: number; likes: number; comments: number; votes: number; saves: number };

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)];
/** Exponential with mean 1: most values small, a long tail. */
const expo = (rand: () => number) => -Math.log(1 - rand() * 0.999999);
const fill = (template: string, slots: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? "");
const joinLines = (...parts: string[]) => parts.filter(Boolean).join(" ");

/** How the demo accounts take part where they are members (chance per post). */
const DEMO_HABITS: Record<
  DemoAccount,
  { like: number; save: number; comment: number; bigLike: number; bigSave: number; bigComment: number }
> = {
  owner: { like: 0.3, save: 0.06, comment: 0.12, bigLike: 0.03, bigSave: 0.004, bigComment: 0.012 },
  member: { like: 0.3, save: 0.06, comment: 0.1, bigLike: 0.025, bigSave: 0.004, bigComment: 0.01 },
};

class CommunityPosts {
  readonly members: Member[];
  readonly byId: Map<string, Member>;
  readonly drafts: Draft[] = [];
  /** Creator Growth Lab: generated posts and its own scale of reactions. */
  readonly lab: boolean;

  constructor(
    readonly c: SeededCommunity,
    readonly rand: () => number,
    readonly now: number,
    readonly accounts: Record<DemoAccount, { id: string }>,
    readonly pictureFiles: PictureFile[],
  ) {
    this.members = c.members.map((m) => ({ id: m.userId, joined: m.joinedAt.getTime(), rank: ROLE_RANK[m.role] }));
    this.byId = new Map(this.members.map((m) => [m.id, m]));
    this.lab = c.slug === GROWTH_LAB_SLUG;
  }

  /** A random member who had joined by `at`, ranked at least `minRank`, not in `not`. */
  someone(at: number, minRank = ROLE_RANK.member, not?: Set<string> | string): Member | null {
    for (let i = 0; i < 60; i++) {
      const m = this.members[Math.floor(this.rand() * this.members.length)];
      if (m.joined > at || m.rank < minRank) continue;
      if (typeof not === "string" ? m.id === not : not?.has(m.id)) continue;
      return m;
    }
    return null;
  }

  categoryId(index: number) {
    const cat = this.c.categories[index];
    if (!cat) throw new Error(`${this.c.def.name} has no post category ${index}`);
    return cat.id;
  }

  /** A time after both the post (or comment) and the person joining, before now: quick reactions, a long tail. */
  after(at: number, joined: number, meanHours: number): number {
    const from = Math.max(at, joined) + MINUTE;
    const delay = this.rand() < 0.88 ? expo(this.rand) * meanHours * HOUR : this.rand() * 25 * DAY;
    const t = from + delay;
    return t < this.now - MINUTE ? t : from + this.rand() * Math.max(this.now - MINUTE - from, 0);
  }

  add(d: Omit<Draft, "id" | "communityId" | "likes" | "comments" | "shares" | "edited"> & { edited?: boolean }) {
    const draft: Draft = {
      id: randomUUID(),
      communityId: this.c.id,
      likes: 0,
      comments: 0,
      shares: 0,
      edited: false,
      ...d,
    };
    this.drafts.push(draft);
    return draft;
  }

  /** A hand-written post. */
  addSpec(spec: PostSpec, at: number, storage: Storage, notAnyone: Set<string>) {
    let author: Member | null;
    if (spec.by === "creator") author = this.byId.get(this.c.ownerId) ?? null;
    else if (spec.by === "owner" || spec.by === "member") author = this.byId.get(this.accounts[spec.by].id) ?? null;
    else if (spec.by === "admin") author = this.members.find((m) => m.rank === ROLE_RANK.admin) ?? null;
    // Anyone else: a member who is not the creator or a demo account; pending posts come from plain
    // members (a moderator's post needs no approval).
    else {
      author = this.someone(at - HOUR, ROLE_RANK.member, notAnyone);
      for (let i = 0; spec.pending && author && author.rank !== ROLE_RANK.member && i < 20; i++) {
        author = this.someone(at - HOUR, ROLE_RANK.member, notAnyone);
      }
    }
    if (!author) throw new Error(`No author for a demo post in ${this.c.def.name} (${spec.by ?? "anyone"})`);
    // The author was there before writing it (the demo accounts' own places may be recent).
    at = Math.max(at, author.joined + HOUR);
    let type: Draft["type"] = "text";
    let media: MediaItem[] = [];
    let poll: PollData | null = null;
    const firstPicture = this.pictureFiles.length;
    if (spec.pictures) {
      type = "image";
      media = spec.pictures.map((key) => {
        const base = `community-assets/${this.c.id}/posts/${randomUUID()}`;
        this.pictureFiles.push({ key, base, communityId: this.c.id, ownerId: author.id });
        return {
          type: "image",
          url: storage.publicUrl(`${base}.webp`),
          medium: storage.publicUrl(`${base}-medium.webp`),
          thumbnail: storage.publicUrl(`${base}-thumbnail.webp`),
        };
      });
    } else if (spec.video) {
      type = "video";
      media = [{ type: "video", url: spec.video }];
    } else if (spec.poll) {
      type = "poll";
      poll = pollData(spec.poll.options, spec.poll.hours, at);
    } else if (spec.link) {
      type = "link";
    }
    const draft = this.add({
      authorId: author.id,
      categoryId: this.categoryId(spec.cat),
      content: spec.text,
      type,
      visibility: spec.visibility ?? "public",
      approved: !spec.pending,
      pinned: spec.pinned ?? false,
      at,
      media,
      poll,
      pollVotes: spec.poll?.votes,
      link: spec.link ? { ...spec.link, image: null } : null,
      tone: spec.tone ?? (spec.poll ? "poll" : "share"),
      buzz: spec.buzz ?? 1,
    });
    for (const f of this.pictureFiles.slice(firstPicture)) f.postId = draft.id;
    return { draft, presetComments: spec.comments ?? [] };
  }
}

/** Where a picture goes: noted while posts are drafted, written once the pictures are rendered. */
type PictureFile = { key: string; base: string; communityId: string; ownerId: string; postId?: string };

function pollData(options: string[], hours: number, at: number): PollData {
  return {
    options: options.map((text) => ({ id: randomUUID(), text, votes: 0 })),
    duration_hours: hours,
    expires_at: hours > 0 ? new Date(at + hours * HOUR).toISOString() : null,
    total_votes: 0,
  };
}

/** Creator Growth Lab's generated posts: categories, types and text from the templates, skewed to a few keen posters. */
function growthLabPosts(g: CommunityPosts, count: number, exclude: Set<string>, people: Map<string, Person>) {
  const { rand, now } = g;
  // A few people write most posts: the member list in a fixed random order, picked with a skew to the front.
  const posters = g.members.filter((m) => !exclude.has(m.id));
  for (let i = posters.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [posters[i], posters[j]] = [posters[j], posters[i]];
  }
  const pollPool = [...GROWTH.polls];
  for (let i = 0; i < count; i++) {
    // More recent days are busier (the community is growing).
    const at = now - Math.max(GROWTH_LAB_DAYS * DAY * rand() ** 1.25, 10 * MINUTE);
    let author: Member | null = null;
    for (let tries = 0; tries < 40 && !author; tries++) {
      const m = posters[Math.floor(posters.length * rand() ** 1.6)];
      if (m.joined < at - HOUR) author = m;
    }
    author ??= g.someone(at - HOUR, ROLE_RANK.member, exclude) ?? posters[0];
    const platform = pick(rand, PLATFORMS);
    const slots = {
      niche: pick(rand, NICHES),
      platform: platform.name,
      unit: platform.unit,
      count: pick(rand, ["800", "1,200", "3,000", "4,500", "9,000", "15,000"]),
      milestone: pick(rand, MILESTONES),
      asset: pick(rand, GROWTH.assets),
    };
    const r = rand();
    const base = {
      authorId: author.id,
      at,
      media: [] as MediaItem[],
      poll: null,
      link: null,
      pinned: false,
      approved: true,
    };
    const visibility: Draft["visibility"] = rand() < 0.05 ? "members" : "public";
    const edited = rand() < 0.04;
    if (r < 0.012 && pollPool.length) {
      const p = pollPool.splice(Math.floor(rand() * pollPool.length), 1)[0];
      const hours = pick(rand, [24, 72, 168]);
      g.add({
        ...base,
        categoryId: g.categoryId(0),
        content: p.text,
        type: "poll",
        visibility,
        poll: pollData(p.options, hours, at),
        tone: "poll",
        buzz: 1,
        edited,
      });
    } else if (r < 0.035) {
      const v = pick(rand, GROWTH.videos);
      g.add({
        ...base,
        categoryId: g.categoryId(rand() < 0.5 ? 0 : 3),
        content: pick(rand, GROWTH.videoIntros) + v.text,
        type: "video",
        visibility,
        media: [{ type: "video", url: v.url }],
        tone: "share",
        buzz: 1.2,
        edited,
      });
    } else if (r < 0.055) {
      const l = pick(rand, GROWTH.links);
      g.add({
        ...base,
        categoryId: g.categoryId(rand() < 0.6 ? 0 : 2),
        content: `${pick(rand, GROWTH.linkIntros)}${l.text}\n\n${l.link.url}`,
        type: "link",
        visibility,
        link: { ...l.link, image: null },
        tone: "share",
        buzz: 1,
        edited,
      });
    } else {
      const c = rand();
      let cat: number;
      let content: string;
      let tone: Tone;
      let buzz = 1;
      if (c < 0.3) {
        cat = 0;
        tone = "question";
        content = joinLines(
          pick(rand, GROWTH.general),
          fill(pick(rand, GROWTH.context), slots),
          pick(rand, GROWTH.closer),
        );
      } else if (c < 0.48) {
        cat = 1;
        tone = "win";
        buzz = 1.6;
        content =
          rand() < 0.6
            ? joinLines(
                fill(pick(rand, GROWTH.winOpeners), slots),
                pick(rand, GROWTH.winContext),
                pick(rand, GROWTH.worked),
                fill(pick(rand, GROWTH.thanks), slots),
              )
            : joinLines(
                pick(rand, GROWTH.smallWins),
                pick(rand, GROWTH.worked),
                fill(pick(rand, GROWTH.thanks), slots),
              );
      } else if (c < 0.7) {
        cat = 2;
        tone = "share";
        const medium = pick(rand, ["video", "newsletter", "social"] as const);
        content =
          `Experiment: ${pick(rand, GROWTH.experiments[medium])} for ${pick(rand, GROWTH.durations)}.\n\n` +
          `Result: ${pick(rand, [...GROWTH.results[medium], ...GROWTH.results.any])}\n\n` +
          joinLines(pick(rand, GROWTH.lessons), pick(rand, GROWTH.asks));
        buzz = 1.2;
      } else if (c < 0.82) {
        cat = 3;
        tone = "share";
        content = [
          `Teardown: ${pick(rand, GROWTH.subjects)}.`,
          `What works: ${pick(rand, GROWTH.works)}\nWhat I'd change: ${pick(rand, GROWTH.changes)}`,
          pick(rand, GROWTH.closings),
        ]
          .filter(Boolean)
          .join("\n\n");
        buzz = 1.3;
      } else {
        cat = 4;
        tone = "intro";
        buzz = 0.7;
        const person = people.get(author.id);
        const first = person?.name.split(" ")[0] ?? "new here";
        const who = person?.headline ? `, ${person.headline.toLowerCase()}` : "";
        const from = person?.location ? ` from ${person.location}` : "";
        content = joinLines(
          `Hi everyone! I'm ${first}${who}${from}.`,
          fill(`I make {niche} content on {platform} ({count} {unit} so far).`, slots),
          pick(rand, GROWTH.goals),
          pick(rand, GROWTH.hobbies),
        );
      }
      g.add({ ...base, categoryId: g.categoryId(cat), content, type: "text", visibility, tone, buzz, edited });
    }
  }
}

/**
 * Seeds posts and everything hanging off them, inside the seed's transaction. Returns counts for
 * the log. Counters (likes_count, comments_count, poll totals, post_count) are computed here.
 */
export async function seedPosts(input: {
  tx: Tx;
  storage: Storage;
  seeded: SeededCommunity[];
  people: Person[];
  accounts: Record<DemoAccount, { id: string }>;
  now: number;
}): Promise<PostSeedResult> {
  const { tx, storage, seeded, accounts, now } = input;
  // Rendered on the thread pool while the rows go in. Not earlier: the covers' encodes and file
  // writes share that pool, and the communities wait for them.
  const rendering = renderPostPictures();
  rendering.catch(() => {}); // awaited below; this only keeps an early rollback from leaving it unhandled
  const people = new Map(input.people.map((p) => [p.id, p]));
  const pictureFiles: PictureFile[] = [];

  const likes: LikeRow[] = [];
  const saves: { postId: string; userId: string; at: number }[] = [];
  const votes: { postId: string; userId: string; option: number; at: number }[] = [];
  const commentRows: CommentRow[] = [];
  const commentLikeRows: CommentLikeRow[] = [];
  const drafts: Draft[] = [];
  const postCounts: { id: string; count: number }[] = [];

  for (const [index, c] of seeded.entries()) {
    const specs = c.slug === GROWTH_LAB_SLUG ? GROWTH_LAB_POSTS : COMMUNITY_POSTS[c.slug];
    if (!specs) continue;
    // Each community draws from its own sequence: changing one community's content leaves the others as they were.
    const rand = prng(0x9057 + index * 7919);
    const g = new CommunityPosts(c, rand, now, accounts, pictureFiles);
    const notAnyone = new Set([accounts.owner.id, accounts.member.id, c.ownerId]);
    const preset = new Map<string, string[]>();
    // Hand-written posts: spread over the community's recent weeks unless their day is given.
    const window = Math.min(c.def.ageDays - 1, g.lab ? GROWTH_LAB_DAYS : 45) * DAY;
    specs.forEach((spec, i) => {
      const at =
        spec.daysAgo !== undefined
          ? now - spec.daysAgo * DAY - rand() * HOUR
          : now - window * ((specs.length - i - 0.5 + (rand() - 0.5) * 0.8) / specs.length);
      const { draft, presetComments } = g.addSpec(spec, at, storage, notAnyone);
      preset.set(draft.id, presetComments);
    });
    if (g.lab) growthLabPosts(g, GROWTH_LAB_POSTS_TOTAL - specs.length, notAnyone, people);
    if (g.drafts.filter((d) => d.pinned).length > 5) throw new Error(`Too many pinned posts in ${c.def.name}`);

    // Reactions scale with the community: the big one gives thousands of likes, a small one a few.
    const size = c.members.length;
    const likeBase = Math.min(7, 2 + size * 0.03);
    const commentBase = Math.min(1.8, 0.6 + size * 0.004);
    const demoMembers = (["owner", "member"] as const).filter((k) => g.byId.has(accounts[k].id));
    for (const d of g.drafts) {
      drafts.push(d);
      if (!d.approved) continue;
      const minRank = d.visibility === "admins" ? ROLE_RANK.admin : ROLE_RANK.member;
      const eligible = (m: Member | null | undefined): m is Member => !!m && m.rank >= minRank && m.id !== d.authorId;

      // Likes (never your own post).
      const likers = new Set<string>();
      const viral = rand() < 0.05 ? 4 : 1;
      const wantLikes = Math.round(likeBase * d.buzz * viral * (0.25 + 0.75 * expo(rand)) * (d.pinned ? 2 : 1));
      for (const k of demoMembers) {
        const m = g.byId.get(accounts[k].id);
        if (eligible(m) && rand() < (g.lab ? DEMO_HABITS[k].bigLike : DEMO_HABITS[k].like)) {
          likers.add(m.id);
          likes.push({ postId: d.id, userId: m.id, at: g.after(d.at, m.joined, 10) });
        }
      }
      for (let tries = 0; likers.size < wantLikes && tries < wantLikes * 3 + 10; tries++) {
        const m = g.someone(now - HOUR, minRank, likers);
        if (!eligible(m)) continue;
        likers.add(m.id);
        likes.push({ postId: d.id, userId: m.id, at: g.after(d.at, m.joined, 10) });
      }
      d.likes = likers.size;
      d.shares = Math.floor(d.likes * 0.08 * rand());

      // Saves: a few, and the demo accounts keep some.
      const savers = new Set<string>();
      for (const k of demoMembers) {
        const m = g.byId.get(accounts[k].id);
        if (eligible(m) && rand() < (g.lab ? DEMO_HABITS[k].bigSave : DEMO_HABITS[k].save)) savers.add(m.id);
      }
      const wantSaves = rand() < 0.2 * d.buzz ? 1 + Math.floor(rand() * 3) : 0;
      for (let i = 0; i < wantSaves; i++) {
        const m = g.someone(now - HOUR, minRank, savers);
        if (eligible(m)) savers.add(m.id);
      }
      for (const id of savers) saves.push({ postId: d.id, userId: id, at: g.after(d.at, g.byId.get(id)!.joined, 20) });

      // Poll votes, inside the poll's window; option popularity differs per poll.
      if (d.poll) {
        const poll = d.poll;
        const end = poll.expires_at ? Math.min(Date.parse(poll.expires_at), now) : now;
        const weights = poll.options.map(() => 0.2 + rand());
        const sum = weights.reduce((a, b) => a + b, 0);
        const choose = () => {
          let x = rand() * sum;
          for (let i = 0; i < weights.length; i++) if ((x -= weights[i]) < 0) return i;
          return weights.length - 1;
        };
        const voters = new Set<string>();
        const cast = (m: Member, option: number) => {
          voters.add(m.id);
          const from = Math.max(d.at, m.joined) + MINUTE;
          const at = Math.min(from + expo(rand) * 8 * HOUR, from + rand() * Math.max(end - from - MINUTE, 0));
          poll.options[option].votes++;
          poll.total_votes++;
          votes.push({ postId: d.id, userId: m.id, option, at });
        };
        for (const k of demoMembers) {
          const option = d.pollVotes?.[k];
          const m = g.byId.get(accounts[k].id);
          if (option !== undefined && m && Math.max(d.at, m.joined) + MINUTE < end) cast(m, option);
        }
        const span = Math.max(end - d.at, 0);
        const wantVotes = Math.round(
          (g.lab ? 30 + rand() * 70 : size * (0.15 + rand() * 0.2)) * Math.min(1, span / (2 * DAY) + 0.3),
        );
        const demoIds = new Set(demoMembers.map((k) => accounts[k].id));
        for (let tries = 0; voters.size < wantVotes && tries < wantVotes * 3 + 10; tries++) {
          const m = g.someone(end - 2 * MINUTE, minRank, voters);
          // The demo accounts vote only where the content says so (one open poll is left for them to try).
          if (m && !demoIds.has(m.id) && Math.max(d.at, m.joined) + MINUTE < end) cast(m, choose());
        }
      }

      // Comments, some with replies (often from the post's author); comment likes.
      const wantComments = Math.round(
        commentBase * d.buzz * (0.3 + 0.7 * expo(rand)) * (d.tone === "intro" || d.tone === "question" ? 1.4 : 1),
      );
      const texts = [...(preset.get(d.id) ?? [])];
      const count = Math.max(wantComments, texts.length);
      const demoCommenters = demoMembers.filter((k) => {
        const m = g.byId.get(accounts[k].id);
        return eligible(m) && rand() < (g.lab ? DEMO_HABITS[k].bigComment : DEMO_HABITS[k].comment);
      });
      for (let i = 0; i < count; i++) {
        const demo = demoCommenters[i];
        const m = demo ? g.byId.get(accounts[demo].id)! : g.someone(now - HOUR, minRank, d.authorId);
        if (!m) continue;
        const at = g.after(d.at, m.joined, 6);
        const top: CommentRow = {
          id: randomUUID(),
          postId: d.id,
          parentId: null,
          authorId: m.id,
          content: texts[i] ?? pick(rand, COMMENTS[d.tone]),
          at,
          likes: 0,
        };
        commentRows.push(top);
        const thread = [top];
        if (rand() < 0.3) {
          const replies = 1 + Math.floor(rand() * 2);
          for (let r = 0; r < replies; r++) {
            const who = rand() < 0.55 ? g.byId.get(d.authorId) : g.someone(now - HOUR, minRank, top.authorId);
            if (!who || who.id === thread.at(-1)!.authorId) continue;
            const reply: CommentRow = {
              id: randomUUID(),
              postId: d.id,
              parentId: top.id,
              authorId: who.id,
              content: pick(rand, REPLIES),
              at: g.after(thread.at(-1)!.at, who.joined, 4),
              likes: 0,
            };
            commentRows.push(reply);
            thread.push(reply);
          }
        }
        for (const cm of thread) {
          const likedBy = new Set<string>([cm.authorId]);
          const want = Math.round(expo(rand) * (g.lab ? 1 : 0.8));
          for (let tries = 0; likedBy.size - 1 < want && tries < want * 3 + 5; tries++) {
            const liker = g.someone(now - HOUR, minRank, likedBy);
            if (!liker) continue;
            likedBy.add(liker.id);
            commentLikeRows.push({ commentId: cm.id, userId: liker.id, at: g.after(cm.at, liker.joined, 8) });
          }
          cm.likes = likedBy.size - 1;
        }
        d.comments += thread.length;
      }
    }
    postCounts.push({ id: c.id, count: g.drafts.filter((d) => d.approved).length });
  }

  // Edited posts were edited a little after they went up.
  const rand = prng(0x9057);
  const updatedAt = drafts.map((d) => new Date(d.edited ? Math.min(d.at + rand() * 6 * HOUR, now) : d.at));
  await insertMany(tx, posts, [
    [posts.id, drafts.map((d) => d.id)],
    [posts.communityId, drafts.map((d) => d.communityId)],
    [posts.authorId, drafts.map((d) => d.authorId)],
    [posts.categoryId, drafts.map((d) => d.categoryId)],
    [posts.content, drafts.map((d) => d.content)],
    [posts.type, drafts.map((d) => d.type)],
    [posts.visibility, drafts.map((d) => d.visibility)],
    [posts.isApproved, drafts.map((d) => d.approved)],
    [posts.isPinned, drafts.map((d) => d.pinned)],
    [posts.isEdited, drafts.map((d) => d.edited)],
    [posts.likesCount, drafts.map((d) => d.likes)],
    [posts.commentsCount, drafts.map((d) => d.comments)],
    [posts.shareCount, drafts.map((d) => d.shares)],
    [posts.mediaUrls, drafts.map((d) => JSON.stringify(d.media))],
    [posts.pollData, drafts.map((d) => (d.poll ? JSON.stringify(d.poll) : null))],
    [posts.linkPreview, drafts.map((d) => (d.link ? JSON.stringify(d.link) : null))],
    [posts.createdAt, drafts.map((d) => new Date(d.at))],
    [posts.updatedAt, updatedAt],
  ]);
  await insertMany(tx, comments, [
    [comments.id, commentRows.map((c) => c.id)],
    [comments.postId, commentRows.map((c) => c.postId)],
    [comments.parentId, commentRows.map((c) => c.parentId)],
    [comments.authorId, commentRows.map((c) => c.authorId)],
    [comments.content, commentRows.map((c) => c.content)],
    [comments.likesCount, commentRows.map((c) => c.likes)],
    [comments.createdAt, commentRows.map((c) => new Date(c.at))],
    [comments.updatedAt, commentRows.map((c) => new Date(c.at))],
  ]);
  await insertLikes(tx, likes, commentLikeRows, drafts, commentRows);
  await insertMany(tx, savedPosts, [
    [savedPosts.postId, saves.map((s) => s.postId)],
    [savedPosts.userId, saves.map((s) => s.userId)],
    [savedPosts.createdAt, saves.map((s) => new Date(s.at))],
  ]);
  await insertMany(tx, pollVotes, [
    [pollVotes.postId, votes.map((v) => v.postId)],
    [pollVotes.userId, votes.map((v) => v.userId)],
    [pollVotes.optionIndex, votes.map((v) => v.option)],
    [pollVotes.createdAt, votes.map((v) => new Date(v.at))],
  ]);
  await tx.execute(sql`
    update communities c set post_count = n.count
      from unnest(${sql.param(postCounts.map((p) => p.id))}::uuid[], ${sql.param(postCounts.map((p) => p.count))}::int[]) as n(id, count)
     where c.id = n.id`);

  // The pictures, stored like uploads (three variants each) and recorded in media_files.
  const pictures = await rendering;
  const files = pictureFiles;
  await Promise.all(
    files.flatMap(({ key, base }) => {
      const p = pictures[key];
      if (!p) throw new Error(`No demo picture ${key}`);
      return [
        storage.put(`${base}.webp`, p.original, "image/webp"),
        storage.put(`${base}-medium.webp`, p.medium, "image/webp"),
        storage.put(`${base}-thumbnail.webp`, p.thumbnail, "image/webp"),
      ];
    }),
  );
  if (files.length) {
    await tx.insert(mediaFiles).values(
      files.map((f) => ({
        key: `${f.base}.webp`,
        ownerId: f.ownerId,
        communityId: f.communityId,
        postId: f.postId ?? null,
        purpose: "post" as const,
        contentType: "image/webp",
        size: pictures[f.key].original.length,
        variants: { medium: `${f.base}-medium.webp`, thumbnail: `${f.base}-thumbnail.webp` },
      })),
    );
  }
  return {
    posts: drafts.length,
    likes: likes.length + commentLikeRows.length,
    comments: commentRows.length,
    votes: votes.length,
    saves: saves.length,
  };
}

/**
 * Post and comment likes, in two statements. Their counters were written with the posts and
 * comments; the counting triggers (migration 0005) would run one UPDATE per like on top, about a
 * second for the demo's 20,000-odd likes. A superuser (the embedded database's role) switches them
 * off for these two statements only (session_replication_role = replica, which also skips the
 * foreign-key checks: every id here was just inserted by this seed) and back on right after.
 * Any other role keeps them, and the counters are set back to the real counts afterwards.
 */
async function insertLikes(
  tx: Tx,
  likes: LikeRow[],
  commentLikeRows: CommentLikeRow[],
  drafts: Draft[],
  commentRows: CommentRow[],
) {
  const { rows } = await tx.execute<{ superuser: boolean }>(
    sql`select current_setting('is_superuser') = 'on' as superuser`,
  );
  const bypass = rows[0]?.superuser === true;
  if (bypass) await tx.execute(sql`set local session_replication_role = replica`);
  await insertMany(tx, postLikes, [
    [postLikes.postId, likes.map((l) => l.postId)],
    [postLikes.userId, likes.map((l) => l.userId)],
    [postLikes.createdAt, likes.map((l) => new Date(l.at))],
  ]);
  await insertMany(tx, commentLikes, [
    [commentLikes.commentId, commentLikeRows.map((l) => l.commentId)],
    [commentLikes.userId, commentLikeRows.map((l) => l.userId)],
    [commentLikes.createdAt, commentLikeRows.map((l) => new Date(l.at))],
  ]);
  if (bypass) {
    await tx.execute(sql`set local session_replication_role = origin`);
    return;
  }
  const liked = drafts.filter((d) => d.likes > 0);
  await tx.execute(sql`
    update posts p set likes_count = n.count
      from unnest(${sql.param(liked.map((d) => d.id))}::uuid[], ${sql.param(liked.map((d) => d.likes))}::int[]) as n(id, count)
     where p.id = n.id`);
  const likedComments = commentRows.filter((c) => c.likes > 0);
  await tx.execute(sql`
    update comments c set likes_count = n.count
      from unnest(${sql.param(likedComments.map((c) => c.id))}::uuid[], ${sql.param(likedComments.map((c) => c.likes))}::int[]) as n(id, count)
     where c.id = n.id`);
}
