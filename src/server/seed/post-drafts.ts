import { randomUUID } from "node:crypto";
import type { LinkPreview, MediaItem, PollData } from "#server/db/schema/index";
import type { Storage } from "#server/lib/storage";
import { ROLE_RANK } from "#shared/roles";
import type { DemoAccount, Person, SeededCommunity } from "./communities";
import {
  GROWTH,
  GROWTH_LAB_SLUG,
  MILESTONES,
  NICHES,
  PLATFORMS,
  type PollSpec,
  type PostSpec,
  type Tone,
} from "./content/post-content.data";

// Drafting the demo posts before they are inserted (posts.ts): a community's members and posts as
// the seed builds them, and Creator Growth Lab's generated posts.

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const GROWTH_LAB_DAYS = 120;

export type Member = { id: string; joined: number; rank: number };

export type Draft = {
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

export type LikeRow = { postId: string; userId: string; at: number };
export type CommentLikeRow = { commentId: string; userId: string; at: number };
export type CommentRow = {
  id: string;
  postId: string;
  parentId: string | null;
  authorId: string;
  content: string;
  at: number;
  likes: number;
};

export const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)];
/** Exponential with mean 1: most values small, a long tail. */
export const expo = (rand: () => number) => -Math.log(1 - rand() * 0.999999);
export const fill = (template: string, slots: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? "");
export const joinLines = (...parts: string[]) => parts.filter(Boolean).join(" ");

export class CommunityPosts {
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
export type PictureFile = { key: string; base: string; communityId: string; ownerId: string; postId?: string };

export function pollData(options: string[], hours: number, at: number): PollData {
  return {
    options: options.map((text) => ({ id: randomUUID(), text, votes: 0 })),
    duration_hours: hours,
    expires_at: hours > 0 ? new Date(at + hours * HOUR).toISOString() : null,
    total_votes: 0,
  };
}

/** Creator Growth Lab's generated posts: categories, types and text from the templates, skewed to a few keen posters. */
export function growthLabPosts(g: CommunityPosts, count: number, exclude: Set<string>, people: Map<string, Person>) {
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
