/**
 * A mixed load on one community: anonymous visitors reading the directory, the community page, the
 * feed and posts; signed-in members reading the feed, posts and their unread count; and members
 * writing posts and comments, toggling likes and voting in polls. Used by the `mixed` scenario (60 s
 * at 100 connections) and by the short CI load test (src/server/load.test.ts).
 *
 * Every connection follows its own deterministic sequence of request kinds, drawn by weight; each
 * request is timed by kind (one request at a time per connection, so send-to-answer is its latency).
 * Every answer must have its kind's status (200, or 201 for a new post or comment); anything else,
 * a 4xx included, is counted as a failure by kind. Votes never repeat a (member, poll) pair, so a
 * correct server never answers one with 409.
 */
import type autocannon from "autocannon";
import { createHistogram, performance, type RecordableHistogram } from "node:perf_hooks";

export const MIX_KINDS = [
  "directory (anonymous)",
  "community page (anonymous)",
  "feed (anonymous)",
  "post (anonymous)",
  "feed (signed in)",
  "post (signed in)",
  "unread count",
  "create post",
  "comment",
  "like toggle",
  "poll vote",
] as const;
export type MixKind = (typeof MIX_KINDS)[number];

/** Share of requests by kind, in percent: 45 anonymous reads, 35 signed-in reads, 20 writes. */
export const MIX_WEIGHTS: Record<MixKind, number> = {
  "directory (anonymous)": 10,
  "community page (anonymous)": 10,
  "feed (anonymous)": 15,
  "post (anonymous)": 10,
  "feed (signed in)": 15,
  "post (signed in)": 10,
  "unread count": 10,
  "create post": 4,
  comment: 6,
  "like toggle": 6,
  "poll vote": 4,
};

export type MixTargets = {
  /** The community's id (or slug). */
  community: string;
  /** Approved public posts to read, like and comment on; the first ones are read most (a hot post). */
  posts: string[];
  /** Open polls none of the writers has voted in yet. */
  polls: string[];
  /** Cookies of signed-in readers (members). */
  readers: string[];
  /** Cookies of members who write. */
  writers: string[];
  /** The Origin header state-changing requests carry. */
  origin: string;
};

type KindStats = { statuses: Map<number, number>; latency: RecordableHistogram };

export type MixStats = {
  byKind: Map<MixKind, KindStats>;
  /** Ids of the posts and comments the server acknowledged (201), to check they were kept. */
  createdPosts: string[];
  createdComments: string[];
  /** Answers with another status than their kind's, by kind and status, and a few of their bodies. */
  failures: number;
  failureSamples: string[];
  /** Votes asked for after every (member, poll) pair was used (sent as like toggles instead). */
  votesExhausted: number;
};

/** A small deterministic generator (mulberry32), so every run draws the same sequences. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const schedule = (() => {
  const slots: MixKind[] = [];
  for (const kind of MIX_KINDS) for (let i = 0; i < MIX_WEIGHTS[kind]; i++) slots.push(kind);
  return slots;
})();

export function mixedLoad(targets: MixTargets) {
  const stats: MixStats = {
    byKind: new Map(MIX_KINDS.map((k) => [k, { statuses: new Map(), latency: createHistogram() }])),
    createdPosts: [],
    createdComments: [],
    failures: 0,
    failureSamples: [],
    votesExhausted: 0,
  };
  const { posts, polls, readers, writers } = targets;
  if (!posts.length || !readers.length || !writers.length) throw new Error("the mixed load needs posts and members");
  // Vote pairs: vote j is member j mod W on poll (j div W + member × stride) mod P, so no pair repeats
  // for W × P votes and the members voting at one moment are on different polls.
  let votes = 0;
  const stride = Math.max(1, Math.floor(polls.length / writers.length));
  const nextVote = () => {
    const round = Math.floor(votes / writers.length);
    if (round >= polls.length) return null;
    const member = votes % writers.length;
    votes++;
    return { member, poll: polls[(round + member * stride) % polls.length] };
  };
  let connections = 0;
  let sequence = 0;
  const json = { "content-type": "application/json", origin: targets.origin };

  const setupClient = (client: autocannon.Client) => {
    const c = connections++;
    const draw = random(0x4ea27 + c);
    const pick = <T>(xs: T[]) => xs[Math.floor(draw() * xs.length)];
    // Reads lean on the first posts: half of them go to the first three.
    const readPost = () => (draw() < 0.5 ? posts[Math.floor(draw() * Math.min(3, posts.length))] : pick(posts));
    let kind: MixKind = "directory (anonymous)";
    let sentAt = 0;
    client.setRequests([
      {
        setupRequest: (req) => {
          kind = schedule[Math.floor(draw() * schedule.length)];
          sentAt = performance.now();
          const n = sequence++;
          const reader = { cookie: pick(readers) };
          const vote = kind === "poll vote" ? nextVote() : null;
          if (kind === "poll vote" && !vote) {
            // Every (member, poll) pair was used: a like toggle instead.
            stats.votesExhausted++;
            kind = "like toggle";
          }
          switch (kind) {
            case "directory (anonymous)":
              return { ...req, method: "GET", path: "/api/communities", headers: {}, body: undefined };
            case "community page (anonymous)":
              return {
                ...req,
                method: "GET",
                path: `/api/communities/${targets.community}`,
                headers: {},
                body: undefined,
              };
            case "feed (anonymous)":
              return {
                ...req,
                method: "GET",
                path: `/api/communities/${targets.community}/posts`,
                headers: {},
                body: undefined,
              };
            case "post (anonymous)":
              return { ...req, method: "GET", path: `/api/posts/${readPost()}`, headers: {}, body: undefined };
            case "feed (signed in)":
              return {
                ...req,
                method: "GET",
                path: `/api/communities/${targets.community}/posts`,
                headers: reader,
                body: undefined,
              };
            case "post (signed in)":
              return { ...req, method: "GET", path: `/api/posts/${readPost()}`, headers: reader, body: undefined };
            case "unread count":
              return {
                ...req,
                method: "GET",
                path: "/api/notifications/unread-count",
                headers: reader,
                body: undefined,
              };
            case "create post":
              return {
                ...req,
                method: "POST",
                path: `/api/communities/${targets.community}/posts`,
                headers: { ...json, cookie: pick(writers) },
                body: JSON.stringify({ content: `Mixed load post ${n}: what I baked this week, and what I learned.` }),
              };
            case "comment":
              return {
                ...req,
                method: "POST",
                path: `/api/posts/${pick(posts)}/comments`,
                headers: { ...json, cookie: pick(writers) },
                body: JSON.stringify({ content: `Mixed load comment ${n}: lovely crumb, thanks for the notes.` }),
              };
            case "poll vote":
              return {
                ...req,
                method: "POST",
                path: `/api/posts/${vote!.poll}/vote`,
                headers: { ...json, cookie: writers[vote!.member] },
                body: JSON.stringify({ option_index: n % 2 }),
              };
            case "like toggle":
              return {
                ...req,
                method: "POST",
                path: `/api/posts/${pick(posts)}/like`,
                headers: { ...json, cookie: pick(writers) },
                body: "{}",
              };
          }
        },
        onResponse: (status, body) => {
          const s = stats.byKind.get(kind)!;
          s.statuses.set(status, (s.statuses.get(status) ?? 0) + 1);
          s.latency.record(Math.max(1, Math.round((performance.now() - sentAt) * 1000)));
          const expected = kind === "create post" || kind === "comment" ? 201 : 200;
          if (status !== expected) {
            stats.failures++;
            if (stats.failureSamples.length < 5) stats.failureSamples.push(`${kind}: ${status} ${body.slice(0, 200)}`);
            return;
          }
          if (kind === "create post") stats.createdPosts.push((JSON.parse(body) as { id: string }).id);
          if (kind === "comment") stats.createdComments.push((JSON.parse(body) as { id: string }).id);
        },
      },
    ]);
  };
  return { setupClient, stats };
}

/** Per kind: answers, statuses, and latency percentiles (ms) from send to answer. */
export function mixSummary(stats: MixStats) {
  return MIX_KINDS.map((kind) => {
    const s = stats.byKind.get(kind)!;
    const count = [...s.statuses.values()].reduce((a, b) => a + b, 0);
    const ms = (q: number) => (count ? Math.round(s.latency.percentile(q) / 10) / 100 : 0);
    return {
      kind,
      count,
      statuses: Object.fromEntries([...s.statuses.entries()].sort((a, b) => a[0] - b[0])),
      p50: ms(50),
      p99: ms(99),
    };
  });
}

/** Clears the counts (between a warm-up and the measured run); created ids are kept. */
export function resetMixCounts(stats: MixStats) {
  for (const s of stats.byKind.values()) {
    s.statuses.clear();
    s.latency.reset();
  }
  stats.failures = 0;
}
