import { randomUUID } from "node:crypto";
import { comments, posts } from "#server/db/schema/index";
import { insertMany, type SeededCommunity, type Tx } from "./communities";
import { SEARCH_DEMO } from "./content/search.data";

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/**
 * Something to find again (issue 21): a months-old question in Film Photography Club whose answer
 * is only in one of its comments ("Pyrocat"), so search can show a post found by a word of a
 * comment and open it at that comment. Written by members who joined before it; the counters are
 * set from the rows.
 */
export async function seedSearchDemo(input: { tx: Tx; seeded: SeededCommunity[]; now: number }): Promise<void> {
  const { tx, seeded, now } = input;
  const c = seeded.find((s) => s.slug === SEARCH_DEMO.community);
  if (!c) throw new Error(`No demo community ${SEARCH_DEMO.community} for the search demo`);
  const at = now - SEARCH_DEMO.daysAgo * DAY;
  // Plain members who were there already, in a fixed order (the same people on every start).
  const people = c.members
    .filter((m) => m.role === "member" && m.joinedAt.getTime() < at - DAY && m.userId !== c.ownerId)
    .map((m) => m.userId)
    .sort();
  if (people.length < 3) throw new Error(`Too few early members in ${c.slug} for the search demo`);
  const postId = randomUUID();
  const created = new Date(at);
  await insertMany(tx, posts, [
    [posts.id, [postId]],
    [posts.communityId, [c.id]],
    [posts.authorId, [people[0]]],
    [posts.categoryId, [c.categories[1]?.id ?? null]],
    [posts.content, [SEARCH_DEMO.post]],
    [posts.commentsCount, [SEARCH_DEMO.comments.length]],
    [posts.createdAt, [created]],
    [posts.updatedAt, [created]],
  ]);
  const times = SEARCH_DEMO.comments.map((_, i) => new Date(at + (i + 1) * 3 * HOUR));
  await insertMany(tx, comments, [
    [comments.id, SEARCH_DEMO.comments.map(() => randomUUID())],
    [comments.postId, SEARCH_DEMO.comments.map(() => postId)],
    [comments.authorId, [people[1], people[2], people[0]]],
    [comments.content, [...SEARCH_DEMO.comments]],
    [comments.createdAt, times],
    [comments.updatedAt, times],
  ]);
}
