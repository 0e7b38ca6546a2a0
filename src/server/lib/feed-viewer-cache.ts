import type { PgListener } from "./pg-listener";
import { FEED_CHANNEL, PublicCache } from "./public-cache";

/**
 * Channel on which the database announces a change to a person's likes, saves or votes (migration
 * 0031); payload: `${userId}.${postId}`.
 */
export const VIEWER_CHANNEL = "hearth_viewer";

/** How long a post counts as changed here: the feed cache's time to live (a page made before it is gone by then). */
const TOUCH_MS = 2_000;

/**
 * What a signed-in feed page adds to the shared page, kept per process (issue 23, decision 0025):
 * - `states`: a reader's like, save and vote of the posts of the pages they read, under the scope
 *   of their user id, dropped in every process when the database announces a change to their likes,
 *   saves or votes (hearth_viewer, migration 0031) and here at once after their own write commits;
 *   the announcement also touches the post (below), so its new counters show in every process;
 * - `pending`: a reader's own posts that others do not see yet (waiting for approval, hidden pending
 *   review), under the community's scope, dropped with the community's feed pages (hearth_feed);
 * - `touched`: the posts whose counters this process changed lately (likes, votes, comments,
 *   shares; and any process's likes and votes, once announced), so that a reader never sees a page
 *   made before their own like with the like's new count missing; comments and shares made through
 *   other processes show within the feed cache's time to live, as for anonymous readers.
 * Entries live at most a minute; nothing is kept while the LISTEN connection is down.
 */
export class FeedViewerCache {
  readonly states: PublicCache;
  readonly pending: PublicCache;
  private readonly touched = new Map<string, number>();

  constructor(listener: PgListener, opts: { ttlMs?: number; maxEntries?: number } = {}) {
    const common = { scoped: true, ttlMs: opts.ttlMs ?? 60_000, maxEntries: opts.maxEntries ?? 20_000 };
    this.states = new PublicCache(listener, { ...common, channel: null });
    this.pending = new PublicCache(listener, { ...common, channel: FEED_CHANNEL });
    listener.on(VIEWER_CHANNEL, (payload) => {
      const dot = payload.lastIndexOf(".");
      this.forgetViewer(dot < 0 ? payload : payload.slice(0, dot));
      if (dot >= 0) this.touch(payload.slice(dot + 1));
    });
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
}
