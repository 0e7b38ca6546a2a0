import type { PgListener } from "./pg-listener";
import { onFeedChange, PublicCache, type FeedChange } from "./public-cache";

/**
 * Channel on which the database announces a change to a person's likes, saves or votes (migration
 * 0031); payload: `${userId}.${postId}`.
 */
export const VIEWER_CHANNEL = "hearth_viewer";

/** A reader's kept pending posts in a community (and category, or ""), under the scope of the two. */
export const pendingKey = (communityId: string, userId: string, categoryId: string | undefined) =>
  `${communityId}.${userId}:${categoryId ?? ""}`;

/** How long a post counts as changed here: the feed cache's time to live (a page made before it is gone by then). */
const TOUCH_MS = 2_000;

/**
 * What a signed-in feed page adds to the shared page, kept per process (issue 23, decision 0025):
 * - `states`: a reader's like, save and vote of the posts of the pages they read, under the scope
 *   of their user id, dropped in every process when the database announces a change to their likes,
 *   saves or votes (hearth_viewer, migration 0031) and here at once after their own write commits;
 *   the announcement also touches the post (below), so its new counters show in every process;
 * - `pending`: a reader's own posts that others do not see yet (waiting for approval, hidden pending
 *   review), under the community's scope, dropped when the database announces a change to one of
 *   their posts there, or to the whole community (hearth_feed, migration 0040);
 * - `touched`: the posts whose counters this process changed lately (likes, votes, comments,
 *   shares; and any process's likes and votes, once announced), so that a reader never sees a page
 *   made before their own like with the like's new count missing; comments and shares made through
 *   other processes show within the feed cache's time to live, as for anonymous readers;
 * - `counters`: the touched posts' counters read after their last touch, shared by every reader of
 *   a page made before it (countersOf), so a like on a page's post costs its readers one read of
 *   that post's counters, not each reader a read of the whole page's.
 * Entries live at most a minute; nothing is kept while the LISTEN connection is down.
 */
export class FeedViewerCache {
  readonly states: PublicCache;
  readonly pending: PublicCache;
  private readonly touched = new Map<string, number>();
  /** Posts' counters read after a touch (countersOf), with when their reading began. */
  private readonly counters = new Map<string, { at: number; value: unknown }>();
  /** Counter reads under way, by post, with when they began. */
  private readonly reading = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(listener: PgListener, opts: { ttlMs?: number; maxEntries?: number } = {}) {
    const common = { scoped: true, ttlMs: opts.ttlMs ?? 60_000, maxEntries: opts.maxEntries ?? 20_000 };
    this.states = new PublicCache(listener, { ...common, channel: null });
    this.pending = new PublicCache(listener, { ...common, channel: null });
    // A reader's pending posts change only with their own posts: a post's change drops its author's.
    onFeedChange(listener, (change) => (change ? this.forgetPending(change) : this.pending.clear()));
    listener.on(VIEWER_CHANNEL, (payload) => {
      const dot = payload.lastIndexOf(".");
      this.forgetViewer(dot < 0 ? payload : payload.slice(0, dot));
      if (dot >= 0) this.touch(payload.slice(dot + 1));
    });
  }

  /**
   * Drops the pending posts a change may have changed: its post's author's, the member's whose level
   * changed (it shows on their posts), or else everyone's in the community.
   */
  forgetPending({ community, post, level }: FeedChange): void {
    const member = post ? post.author : level;
    if (member) this.pending.clearScope(`${community}.${member}`);
    else this.pending.clearScopesUnder(`${community}.`);
  }

  /** Drops one reader's kept likes, saves and votes in this process (others hear the database). */
  forgetViewer(userId: string): void {
    this.states.clearScope(userId);
  }

  /** This process changed the post's counters now. */
  touch(postId: string): void {
    const now = Date.now();
    this.touched.delete(postId);
    this.touched.set(postId, now);
    if (this.touched.size > 10_000) {
      // Oldest first (a Map keeps insertion order, and a touch moves its post to the end).
      for (const [id, at] of this.touched) {
        if (at > now - TOUCH_MS) break;
        this.touched.delete(id);
      }
    }
  }

  /** Whether this process changed the post's counters at or after `since` (ms). */
  touchedSince(postId: string, since: number): boolean {
    const at = this.touched.get(postId);
    return at !== undefined && at >= since;
  }

  /**
   * The current counters of the posts `ids` (touched here since the page that shows them was made),
   * shared by every reader: those read after the post's last touch are used as they are, a read
   * under way that began after it is waited for, and the rest are read with one call of `read`.
   * A post `read` does not return is left out.
   */
  async countersOf<C extends { id: string }>(
    ids: string[],
    read: (ids: string[]) => Promise<C[]>,
  ): Promise<Map<string, C>> {
    const out = new Map<string, C>();
    const waits: Promise<void>[] = [];
    const need: string[] = [];
    for (const id of ids) {
      const touchedAt = this.touched.get(id) ?? 0;
      // Read strictly after the touch: a read begun in the same millisecond may predate the change.
      const kept = this.counters.get(id);
      if (kept && kept.at > touchedAt) {
        out.set(id, kept.value as C);
        continue;
      }
      const running = this.reading.get(id);
      if (running && running.at > touchedAt) {
        waits.push(running.value.then((c) => void (c && out.set(id, c as C))));
        continue;
      }
      need.push(id);
    }
    if (need.length) {
      const at = Date.now();
      const all = read(need).then((rows) => new Map(rows.map((r) => [r.id, r])));
      for (const id of need) {
        const one = all.then((m) => m.get(id));
        this.reading.set(id, { at, value: one });
        waits.push(
          one.then(
            (c) => {
              if (this.reading.get(id)?.value === one) this.reading.delete(id);
              if (!c) return;
              out.set(id, c);
              const kept = this.counters.get(id);
              if (!kept || kept.at < at) this.keepCounters(id, { at, value: c });
            },
            (err: unknown) => {
              if (this.reading.get(id)?.value === one) this.reading.delete(id);
              throw err;
            },
          ),
        );
      }
    }
    await Promise.all(waits);
    return out;
  }

  private keepCounters(id: string, entry: { at: number; value: unknown }): void {
    this.counters.delete(id);
    this.counters.set(id, entry);
    // Oldest first (a Map keeps insertion order): at most as many as the touches kept.
    if (this.counters.size > 10_000) this.counters.delete(this.counters.keys().next().value!);
  }
}
