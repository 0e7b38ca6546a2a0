import type { PgListener } from "./pg-listener";

/** Channel on which the database announces changes to what anonymous visitors see (migration 0004). */
export const PUBLIC_CHANNEL = "hearth_public";
/** Channel on which the database announces changes to a community's posts (migration 0006); payload: the community id. */
export const FEED_CHANNEL = "hearth_feed";

type Entry = { value: unknown; expires: number };

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

  constructor(
    private readonly listener: PgListener,
    private readonly opts: {
      channel?: string;
      ttlMs?: number;
      maxEntries?: number;
      /** Notifications name the scope (a community id) whose keys to drop; otherwise any drops all. */
      scoped?: boolean;
    } = {},
  ) {
    listener.on(opts.channel ?? PUBLIC_CHANNEL, (payload) =>
      opts.scoped && payload ? this.clearScope(payload) : this.clear(),
    );
    listener.onReset(() => this.clear());
  }

  get<T = string>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now() || !this.listener.isConnected) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  set(key: string, value: unknown): void {
    if (!this.listener.isConnected) return;
    if (this.entries.size >= (this.opts.maxEntries ?? 1_000)) {
      // Oldest first: Map keeps insertion order.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expires: Date.now() + (this.opts.ttlMs ?? 2_000) });
  }

  clear(): void {
    this.entries.clear();
  }

  /** Drops the keys of one scope (keys are written `${scope}:…`). */
  clearScope(scope: string): void {
    const prefix = `${scope}:`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
