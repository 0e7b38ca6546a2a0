import type { PgListener } from "./pg-listener";

/** Channel on which the database announces changes to what anonymous visitors see (migration 0004). */
export const PUBLIC_CHANNEL = "hearth_public";

type Entry = { body: string; expires: number };

/**
 * Serialized answers that are the same for every anonymous visitor (directory pages, public
 * community pages), kept for a moment. Any change to a community's public fields, made by any
 * process through any code path, is announced by a database trigger and clears the cache in every
 * process; counters (members, posts) may lag by at most the time to live. Without a live LISTEN
 * connection nothing is cached, since a change could go unnoticed.
 */
export class PublicCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly listener: PgListener,
    private readonly ttlMs = 2_000,
    private readonly maxEntries = 1_000,
  ) {
    listener.on(PUBLIC_CHANNEL, () => this.clear());
    listener.onReset(() => this.clear());
  }

  get(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now() || !this.listener.isConnected) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.body;
  }

  set(key: string, body: string): void {
    if (!this.listener.isConnected) return;
    if (this.entries.size >= this.maxEntries) {
      // Oldest first: Map keeps insertion order.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { body, expires: Date.now() + this.ttlMs });
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
