import type { PgListener } from "./pg-listener";

/** Channel on which the database announces changes to what anonymous visitors see (migration 0004). */
export const PUBLIC_CHANNEL = "hearth_public";
/** Channel on which the database announces changes to a community's posts (migration 0006); payload: the community id. */
export const FEED_CHANNEL = "hearth_feed";
/** Channel on which the database announces changes to a community's calendar (migration 0020); payload: the community id. */
export const CALENDAR_CHANNEL = "hearth_calendar";

/**
 * Channel on which the database announces a change to one member's role or standing in a community
 * (migration 0028); payload: `${communityId}.${userId}`, the scope of their member cache entries.
 */
export const MEMBER_CHANNEL = "hearth_members";

type Entry = { value: unknown; expires: number };

/** A key's scope: what comes before its first ':' (null when it has none). */
const scopeOf = (key: string) => {
  const at = key.indexOf(":");
  return at < 0 ? null : key.slice(0, at);
};

/**
 * A post's own keys in the feed cache are under a scope of their own, `${communityId}.${postId}`, so
 * a change to one post drops them in one step, and a change to the whole community drops every
 * scope that starts with `${communityId}.` (dropFeedChange).
 */
const postScope = (communityId: string, postId: string) => `${communityId}.${postId}`;
/**
 * An anonymous visitor's view of one post (its serialized post, without the community's card), kept
 * in the feed cache: any change to the post drops it in every process. Writes that change only its
 * counters (likes, votes, shares, comments) drop it in their own process.
 */
export const postPageKey = (communityId: string, postId: string) => `${postScope(communityId, postId)}:post`;
/** A post's columns shared by every signed-in viewer, kept in the feed cache beside its postPageKey. */
export const sharedPostKey = (communityId: string, postId: string) => `${postScope(communityId, postId)}:spost`;
/** Which community a post is in, kept in the public cache (dropped when any community changes). */
export const postCommunityKey = (postId: string) => `post-community:${postId}`;

/**
 * A change announced on hearth_feed (migration 0040). A post's change names the post, whether it was
 * just made, and its author: `community/post/new|changed/author`. A member's level changed (it shows
 * on their posts): `community//level/member`. The community's id alone (its posts removed for good,
 * its level settings changed) concerns all of it.
 */
export type FeedChange = {
  community: string;
  /** The post that changed; its author null when not known (then every reader's kept posts there go). */
  post?: { id: string; created: boolean; author: string | null };
  /** The member whose level changed. */
  level?: string;
};

export function parseFeedChange(payload: string): FeedChange {
  const [community, post, kind, ...user] = payload.split("/");
  if (kind === undefined) return { community: payload };
  const who = user.join("/");
  if (kind === "level") return { community, level: who };
  return { community, post: { id: post, created: kind === "new", author: who } };
}

/**
 * Calls `handler` with each change announced on hearth_feed, parsed; null for an empty payload
 * (everything may have changed).
 */
export function onFeedChange(listener: PgListener, handler: (change: FeedChange | null) => void): void {
  listener.on(FEED_CHANNEL, (payload) => handler(payload ? parseFeedChange(payload) : null));
}

/**
 * What a feed change makes stale in the feed cache: the community's feed pages, and with a post
 * named, that post's own keys (the other posts' did not change); else (a level shows on author cards)
 * every post's of the community.
 */
export function dropFeedChange(cache: PublicCache, change: FeedChange): void {
  cache.clearScope(change.community);
  if (change.post) cache.clearScope(postScope(change.community, change.post.id));
  else cache.clearScopesUnder(`${change.community}.`);
}

/**
 * Answers that are the same for everyone in a given position (directory pages, public community
 * pages, feed pages by visibility), kept for a moment. Changes made by any process through any
 * code path are announced by database triggers on a channel and drop the entries concerned in
 * every process: everything, or, when the notification names a scope (a community id), the keys
 * that start with it. Counters may lag by at most the time to live. Without a live LISTEN
 * connection nothing is cached, since a change could go unnoticed.
 */
export class PublicCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * The keys kept under each scope (the part of a key before its first ':'), so that a notification
   * naming one scope drops its keys without a pass over every entry (a community deleted with its
   * 20,000 members announces 20,000 scopes to the member cache).
   */
  private readonly scopes = new Map<string, Set<string>>();
  /** Computations under way (getOrCompute), by key; dropped with their key's entry. */
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(
    private readonly listener: PgListener,
    private readonly opts: {
      /** null: no channel of its own (its owner drops entries). */
      channel?: string | null;
      ttlMs?: number;
      maxEntries?: number;
      /** Notifications name the scope (a community id) whose keys to drop; otherwise any drops all. */
      scoped?: boolean;
    } = {},
  ) {
    if (opts.channel !== null) {
      listener.on(opts.channel ?? PUBLIC_CHANNEL, (payload) =>
        opts.scoped && payload ? this.clearScope(payload) : this.clear(),
      );
    }
    listener.onReset(() => this.clear());
  }

  get<T = string>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now() || !this.listener.isConnected) {
      this.drop(key);
      return undefined;
    }
    return entry.value as T;
  }

  /** `ttlMs`: this entry's time to live, when it differs from the cache's. */
  set(key: string, value: unknown, ttlMs = this.opts.ttlMs ?? 2_000): void {
    if (!this.listener.isConnected) return;
    if (this.entries.size >= (this.opts.maxEntries ?? 1_000)) {
      // Oldest first: Map keeps insertion order.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.drop(oldest);
    }
    this.entries.set(key, { value, expires: Date.now() + ttlMs });
    const scope = scopeOf(key);
    if (scope === null) return;
    let keys = this.scopes.get(scope);
    if (!keys) this.scopes.set(scope, (keys = new Set()));
    keys.add(key);
  }

  /**
   * The cached value, or else one computation shared by every caller that asks for the key while it
   * runs (under a spike, an expired entry is computed once, not once per waiting request). A change
   * that drops the key while it runs (delete, clear, clearScope) also lets go of the computation:
   * later callers start a new one, and the older result is not kept.
   */
  getOrCompute<T>(key: string, compute: () => Promise<T>, ttlMs?: number): Promise<T> {
    const hit = this.get<T>(key);
    if (hit !== undefined) return Promise.resolve(hit);
    const running = this.pending.get(key) as Promise<T> | undefined;
    if (running) return running;
    const started: Promise<T> = compute().then(
      (value) => {
        if (this.pending.get(key) === started) {
          this.pending.delete(key);
          this.set(key, value, ttlMs);
        }
        return value;
      },
      (err: unknown) => {
        if (this.pending.get(key) === started) this.pending.delete(key);
        throw err;
      },
    );
    this.pending.set(key, started);
    return started;
  }

  /** Drops one key (this process only: other processes keep theirs up to the time to live). */
  delete(key: string): void {
    this.drop(key);
    this.pending.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.scopes.clear();
    this.pending.clear();
  }

  /** Drops the keys of one scope (keys are written `${scope}:…`). */
  clearScope(scope: string): void {
    const prefix = `${scope}:`;
    if (scope.includes(":")) {
      for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.drop(key);
    } else {
      for (const key of this.scopes.get(scope) ?? []) this.entries.delete(key);
      this.scopes.delete(scope);
    }
    for (const key of this.pending.keys()) if (key.startsWith(prefix)) this.pending.delete(key);
  }

  /** Drops the keys of every scope that starts with `prefix` (one pass over the scopes, not the keys). */
  clearScopesUnder(prefix: string): void {
    for (const scope of [...this.scopes.keys()]) if (scope.startsWith(prefix)) this.clearScope(scope);
    for (const key of this.pending.keys()) if (key.startsWith(prefix)) this.pending.delete(key);
  }

  /** Forgets one entry and its place in its scope. */
  private drop(key: string): void {
    if (!this.entries.delete(key)) return;
    const scope = scopeOf(key);
    const keys = scope === null ? undefined : this.scopes.get(scope);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.scopes.delete(scope!);
  }

  get size(): number {
    return this.entries.size;
  }
}
