import type pg from "pg";
import { isRole, type CommunityRole } from "#shared/roles";
import type { PgListener } from "#server/lib/pg-listener";
import { MEMBER_CHANNEL, PUBLIC_CHANNEL } from "#server/lib/public-cache";
import { AUTH_CHANNEL } from "#server/lib/session";

/** What a viewer may see in a community: their role (null for a visitor), or nothing at all. */
export type Access = { role: CommunityRole | null } | null;

/**
 * New streams per process: a token bucket refilled at joinsPerSecond, holding two seconds' worth.
 * `take()` is false when the bucket is empty. The settings are read at each take (tests change them).
 */
export class JoinBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly settings: { readonly joinsPerSecond: number },
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = settings.joinsPerSecond * 2;
    this.refilledAt = now();
  }

  take(): boolean {
    const now = this.now();
    const { joinsPerSecond } = this.settings;
    this.tokens = Math.min(joinsPerSecond * 2, this.tokens + ((now - this.refilledAt) / 1000) * joinsPerSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

type AccessAsk = {
  userId: string | null;
  sessionId: string | null;
  resolve: (a: Access) => void;
  reject: (e: unknown) => void;
};

type Entry = { at: number; access: Promise<Access>; known?: { access: Access } };

/** Entries the access cache holds at most: one per community, user and session with a stream open. */
const ACCESS_CACHE_MAX = 100_000;

/**
 * What a viewer may see in a community, shared by the streams of one session. The checks asked
 * for in one tick (an event reaching every stream of a community) are read with one query per
 * community, however many viewers there are; a failed read is not kept.
 *
 * An answer is kept until the database announces a change that may alter it, whatever made the
 * change: the viewer's membership or role there (hearth_members), the community (hearth_public),
 * their session or account (hearth_auth). `accessTtlMs` bounds it besides (read at each lookup:
 * tests change it), for what no announcement covers: a session reaching its expiry time. As in
 * every cache, nothing is kept while the LISTEN connection is down, and all is dropped when it
 * comes back. Expired entries go with `sweep()` (the routes call it with their periodic re-check),
 * or when the cache is full.
 */
export class AccessCache {
  /** community → user ("" for a visitor) → session ("" for none) → entry. */
  private readonly cache = new Map<string, Map<string, Map<string, Entry>>>();
  private count = 0;
  /** Announced changes heard so far: a read overtaken by one is not kept (as in every cache). */
  private drops = 0;
  private readonly asking = new Map<string, AccessAsk[]>();

  constructor(
    private readonly pool: Pick<pg.Pool, "query">,
    private readonly settings: { readonly accessTtlMs: number },
    private readonly listener: Pick<PgListener, "on" | "onReset" | "isConnected">,
  ) {
    // `community_id.user_id`: a membership, role or standing changed.
    listener.on(MEMBER_CHANNEL, (payload) => {
      const dot = payload.indexOf(".");
      this.dropUser(payload.slice(dot + 1), payload.slice(0, dot));
    });
    // A community changed (visibility, deletion…); empty: something every community shows.
    listener.on(PUBLIC_CHANNEL, (communityId) => (communityId ? this.dropCommunity(communityId) : this.clear()));
    listener.on(AUTH_CHANNEL, (payload) => {
      if (payload.startsWith("u:")) this.dropUser(payload.slice(2));
      else if (payload.startsWith("s:")) this.dropSession(payload.slice(2));
    });
    listener.onReset(() => this.clear());
  }

  /**
   * The kept answer when it is fresh and already read, without a promise (an event reaching 10,000
   * streams is then handed to each synchronously); undefined when `read` must be asked.
   */
  peek(communityId: string, userId: string | null, sessionId: string | null): Access | undefined {
    const hit = this.entry(communityId, userId, sessionId);
    return hit?.known && this.fresh(hit) ? hit.known.access : undefined;
  }

  /**
   * The answer, read with the other asks of this tick when it is not kept. `aheadMs`: read it again
   * when it would expire within that time (the periodic re-check), so that events keep finding it
   * fresh; until the new answer comes, the one kept still serves.
   */
  read(communityId: string, userId: string | null, sessionId: string | null, aheadMs = 0): Promise<Access> {
    const hit = this.entry(communityId, userId, sessionId);
    if (hit && this.fresh(hit, aheadMs)) return hit.access;
    const access = new Promise<Access>((resolve, reject) => {
      let asks = this.asking.get(communityId);
      if (!asks) {
        this.asking.set(communityId, (asks = []));
        setImmediate(() => {
          this.asking.delete(communityId);
          void this.readBatch(communityId, asks!);
        });
      }
      asks.push({ userId, sessionId, resolve, reject });
    });
    if (this.listener.isConnected) {
      const entry: Entry = { at: Date.now(), access, known: hit && this.fresh(hit) ? hit.known : undefined };
      this.store(communityId, userId ?? "", sessionId ?? "", entry);
      const drops = this.drops;
      const forget = () => this.remove(communityId, userId ?? "", sessionId ?? "", entry);
      // A failed read, or one a change was announced during, is not kept (its asker still gets it).
      access.then((known) => (this.drops === drops ? (entry.known = { access: known }) : forget()), forget);
    }
    return access;
  }

  /** A mark to pass to `remember`: taken before reading what it will be given. */
  get mark(): number {
    return this.drops;
  }

  /**
   * Keeps what a stream's opening just read (the viewer's role and the community's visibility, the
   * session checked by the lookup), unless a change was announced since `mark` was taken: its
   * first event then needs no read.
   */
  remember(communityId: string, userId: string | null, sessionId: string | null, access: Access, mark: number): void {
    if (mark !== this.drops || !this.listener.isConnected) return;
    if (this.peek(communityId, userId, sessionId) !== undefined) return;
    this.store(communityId, userId ?? "", sessionId ?? "", {
      at: Date.now(),
      access: Promise.resolve(access),
      known: { access },
    });
  }

  /** Drops one entry (its stream closed; another stream of the same session reads it again). */
  forget(communityId: string, userId: string | null, sessionId: string | null): void {
    const entry = this.entry(communityId, userId, sessionId);
    if (entry) this.remove(communityId, userId ?? "", sessionId ?? "", entry);
  }

  /** Drops the expired entries. */
  sweep(): void {
    for (const [communityId, users] of this.cache) {
      for (const [userId, sessions] of users) {
        for (const [sessionId, entry] of sessions) {
          if (!this.fresh(entry)) this.remove(communityId, userId, sessionId, entry);
        }
      }
    }
  }

  /** Entries held (tests). */
  get size(): number {
    return this.count;
  }

  private fresh(entry: Entry, aheadMs = 0): boolean {
    return Date.now() - entry.at < this.settings.accessTtlMs - aheadMs && this.listener.isConnected;
  }

  private entry(communityId: string, userId: string | null, sessionId: string | null): Entry | undefined {
    return this.cache
      .get(communityId)
      ?.get(userId ?? "")
      ?.get(sessionId ?? "");
  }

  private store(communityId: string, userId: string, sessionId: string, entry: Entry) {
    if (this.count >= ACCESS_CACHE_MAX) this.sweep();
    if (this.count >= ACCESS_CACHE_MAX) this.clear();
    let users = this.cache.get(communityId);
    if (!users) this.cache.set(communityId, (users = new Map()));
    let sessions = users.get(userId);
    if (!sessions) users.set(userId, (sessions = new Map()));
    if (!sessions.has(sessionId)) this.count++;
    sessions.set(sessionId, entry);
  }

  private remove(communityId: string, userId: string, sessionId: string, entry: Entry) {
    const users = this.cache.get(communityId);
    const sessions = users?.get(userId);
    if (sessions?.get(sessionId) !== entry) return;
    sessions.delete(sessionId);
    this.count--;
    if (sessions.size === 0) users!.delete(userId);
    if (users!.size === 0) this.cache.delete(communityId);
  }

  /** A user's entries in one community, or in every community. */
  private dropUser(userId: string, communityId?: string) {
    this.drops++;
    // Deleting the entry being visited is safe while iterating a Map: no copy of the keys.
    for (const id of communityId ? [communityId] : this.cache.keys()) {
      const users = this.cache.get(id);
      const sessions = users?.get(userId);
      if (!users || !sessions) continue;
      this.count -= sessions.size;
      users.delete(userId);
      if (users.size === 0) this.cache.delete(id);
    }
  }

  private dropCommunity(communityId: string) {
    this.drops++;
    for (const sessions of this.cache.get(communityId)?.values() ?? []) this.count -= sessions.size;
    this.cache.delete(communityId);
  }

  /** One session's entries: a pass over the cache (a sign-out is rare beside an event). */
  private dropSession(sessionId: string) {
    this.drops++;
    for (const [communityId, users] of this.cache) {
      for (const [userId, sessions] of users) {
        const entry = sessions.get(sessionId);
        if (entry) this.remove(communityId, userId, sessionId, entry);
      }
    }
  }

  private clear() {
    this.drops++;
    this.cache.clear();
    this.count = 0;
  }

  private async readBatch(communityId: string, asks: AccessAsk[]) {
    try {
      const { rows } = await this.pool.query<{
        i: number;
        visibility: string;
        role: string | null;
        session_ok: boolean;
      }>(
        `SELECT k.i::int AS i, c.visibility, m.role,
                (k.session_id IS NULL OR EXISTS (SELECT 1 FROM session s WHERE s.id = k.session_id AND s.expires_at > now())) AS session_ok
           FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS k(user_id, session_id, i)
           JOIN communities c ON c.id = $1
           LEFT JOIN community_members m ON m.community_id = c.id AND m.user_id = k.user_id`,
        [communityId, asks.map((a) => a.userId), asks.map((a) => a.sessionId)],
      );
      const byIndex = new Map(rows.map((r) => [r.i, r]));
      asks.forEach((ask, index) => {
        const row = byIndex.get(index + 1);
        // Gone, signed out, or private to someone who is no longer a member: the stream ends.
        if (!row || !row.session_ok) return ask.resolve(null);
        const role = isRole(row.role) ? row.role : null;
        ask.resolve(row.visibility === "private" && !role ? null : { role });
      });
    } catch (err) {
      for (const ask of asks) ask.reject(err);
    }
  }
}
