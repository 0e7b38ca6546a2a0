import type { PgListener } from "./pg-listener";
import { CALENDAR_CHANNEL, MEMBER_CHANNEL, onFeedChange, PUBLIC_CHANNEL } from "./public-cache";

/**
 * Channel on which the database announces a change to which of a person's notifications are unread
 * (migration 0030); payload: the user id.
 */
export const UNREAD_CHANNEL = "hearth_unread";

/** What a count depends on: the communities of the person's unread notifications, visible or not. */
export type UnreadCount = { count: number; communities: string[] };

type Entry = { count: number; communities: string[]; expires: number };

/** A drop heard while a count was being read: one person, one community, or everything. */
type Drop = { seq: number; user?: string; community?: string; all?: boolean };

/** How many recent drops are remembered for counts still being read (older ones: the count is not kept). */
const DROP_LOG = 1_024;

/**
 * Each person's count of unread in-app notifications, kept per process (issue 23: the bell's count is
 * asked on every page). A count is exact when read; it is dropped in every process by the changes
 * that can move it, announced by the database whatever made them:
 * - their notifications made, read, unread again or deleted (hearth_unread, migration 0030);
 * - their membership or role in any community (hearth_members), which decides what they may see;
 * - a community of one of their unread notifications: its visibility (hearth_public), its posts
 *   (hearth_feed: deleted, hidden, approved, moved, but not a new post), its events (hearth_calendar).
 *
 * A change heard while a count is being read keeps that count from being stored (the drops of the
 * last moments are remembered), so a count read before a change is never kept after it. Nothing is
 * kept while the LISTEN connection is down; entries live at most `ttlMs`.
 */
export class UnreadCountCache {
  private readonly entries = new Map<string, Entry>();
  /** The people whose kept count depends on each community. */
  private readonly byCommunity = new Map<string, Set<string>>();
  private readonly drops: Drop[] = [];
  private seq = 0;

  constructor(
    private readonly listener: PgListener,
    private readonly opts: { ttlMs?: number; maxEntries?: number } = {},
  ) {
    listener.on(UNREAD_CHANNEL, (userId) => this.forgetUser(userId));
    // `${communityId}.${userId}`: a membership, role or standing changed.
    listener.on(MEMBER_CHANNEL, (payload) => this.forgetUser(payload.slice(payload.indexOf(".") + 1)));
    for (const channel of [PUBLIC_CHANNEL, CALENDAR_CHANNEL]) {
      listener.on(channel, (communityId) => (communityId ? this.forgetCommunity(communityId) : this.clear()));
    }
    // A new post or a member's level changes no one's unread notifications (theirs are announced on
    // hearth_unread); a post deleted, hidden, approved or moved may hide some.
    onFeedChange(listener, (change) => {
      if (!change) this.clear();
      else if (!change.post?.created && change.level === undefined) this.forgetCommunity(change.community);
    });
    listener.onReset(() => this.clear());
  }

  /** The kept count, or else `read()`'s, kept unless something that could move it changed meanwhile. */
  async get(userId: string, read: () => Promise<UnreadCount>): Promise<number> {
    const entry = this.entries.get(userId);
    if (entry) {
      if (entry.expires > Date.now() && this.listener.isConnected) return entry.count;
      this.remove(userId);
    }
    const since = this.seq;
    const fresh = await read();
    if (this.listener.isConnected && !this.changedSince(since, userId, fresh.communities)) this.store(userId, fresh);
    return fresh.count;
  }

  /** Drops one person's count in this process (after a write of theirs commits; others hear the database). */
  forgetUser(userId: string): void {
    this.remember({ seq: 0, user: userId });
    this.remove(userId);
  }

  private forgetCommunity(communityId: string): void {
    this.remember({ seq: 0, community: communityId });
    for (const userId of this.byCommunity.get(communityId) ?? []) this.remove(userId);
  }

  clear(): void {
    this.remember({ seq: 0, all: true });
    this.entries.clear();
    this.byCommunity.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private remember(drop: Drop): void {
    drop.seq = ++this.seq;
    this.drops.push(drop);
    if (this.drops.length > DROP_LOG * 2) this.drops.splice(0, this.drops.length - DROP_LOG);
  }

  /** Whether a drop since `since` concerns this person or one of these communities (or is too old to tell). */
  private changedSince(since: number, userId: string, communities: string[]): boolean {
    if (this.seq === since) return false;
    const oldest = this.drops.length ? this.drops[0].seq : this.seq + 1;
    if (oldest > since + 1) return true;
    for (let i = this.drops.length - 1; i >= 0 && this.drops[i].seq > since; i--) {
      const d = this.drops[i];
      if (d.all || d.user === userId || (d.community !== undefined && communities.includes(d.community))) return true;
    }
    return false;
  }

  private store(userId: string, value: UnreadCount): void {
    this.remove(userId);
    const max = this.opts.maxEntries ?? 20_000;
    if (this.entries.size >= max) {
      // The oldest stored go first (a Map keeps insertion order).
      const first = this.entries.keys().next().value;
      if (first !== undefined) this.remove(first);
    }
    this.entries.set(userId, {
      count: value.count,
      communities: value.communities,
      expires: Date.now() + (this.opts.ttlMs ?? 60_000),
    });
    for (const communityId of value.communities) {
      let users = this.byCommunity.get(communityId);
      if (!users) this.byCommunity.set(communityId, (users = new Set()));
      users.add(userId);
    }
  }

  private remove(userId: string): void {
    const entry = this.entries.get(userId);
    if (!entry) return;
    this.entries.delete(userId);
    for (const communityId of entry.communities) {
      const users = this.byCommunity.get(communityId);
      if (!users) continue;
      users.delete(userId);
      if (users.size === 0) this.byCommunity.delete(communityId);
    }
  }
}
