import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { commentLikes, comments, mediaFiles, pollVotes, postLikes, posts, savedPosts } from "#server/db/schema/index";
import type { Storage } from "#server/lib/storage";
import { ROLE_RANK } from "#shared/roles";
import { postPictureSvg, prng, renderPostPicture, type PictureVariants } from "./art";
import { insertMany, type DemoAccount, type Person, type SeededCommunity, type Tx } from "./communities";
import {
  COMMENTS,
  COMMUNITY_POSTS,
  DEMO_PICTURES,
  GROWTH_LAB_POSTS,
  GROWTH_LAB_SLUG,
  REPLIES,
} from "./content/post-content.data";
import { DEMO_HABITS } from "./content/posts.data";
import {
  CommunityPosts,
  DAY,
  expo,
  GROWTH_LAB_DAYS,
  growthLabPosts,
  HOUR,
  MINUTE,
  pick,
  type CommentLikeRow,
  type CommentRow,
  type Draft,
  type LikeRow,
  type Member,
  type PictureFile,
} from "./post-drafts";

/**
 * Demo posts: Creator Growth Lab gets 1,200 posts over the last 120 days put together from
 * templates, every other community a handful of hand-written ones; then likes, saves, poll votes,
 * comments with replies and comment likes from their members, at believable times (always after
 * what they react to). Every counter is computed here and written with the rows, so the seed's
 * likes go in with the like triggers off (see insertLikes); everything else is a few bulk statements.
 */

/** Creator Growth Lab's size: more than 1,000 posts, so its feed and leaderboards have real depth. */
export const GROWTH_LAB_POSTS_TOTAL = 1200;

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

export type PostSeedResult = { posts: number; likes: number; comments: number; votes: number; saves: number };

/**
 * Seeds posts and everything hanging off them, inside the seed's transaction. Returns counts for
 * the log. Counters (likes_count, comments_count, poll totals) are computed here; post_count is the
 * database's (migration 0039).
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
