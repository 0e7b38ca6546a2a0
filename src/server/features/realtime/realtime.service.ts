import type pg from "pg";
import { isRole, type CommunityRole } from "#shared/roles";

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

/** Entries the access cache holds at most: one per community, user and session with a stream open. */
const ACCESS_CACHE_MAX = 100_000;

/**
 * What a viewer may see in a community, shared by the streams of one session for accessTtlMs (read
 * at each lookup: tests change it). The
 * checks asked for in one tick (an event reaching every stream of a community) are read with one
 * query per community, however many viewers there are. A failed read is not cached. Expired
 * entries are dropped by `sweep()` (the routes call it with their periodic re-check) and when the
 * cache is full.
 */
export class AccessCache {
  private readonly cache = new Map<string, { at: number; access: Promise<Access>; known?: { access: Access } }>();
  private readonly asking = new Map<string, AccessAsk[]>();

  constructor(
    private readonly pool: Pick<pg.Pool, "query">,
    private readonly settings: { readonly accessTtlMs: number },
  ) {}

  /**
   * The cached answer when it is fresh and already read, without a promise (an event reaching
   * 10,000 streams is then handed to each synchronously); undefined when `read` must be asked.
   */
  peek(communityId: string, userId: string | null, sessionId: string | null): Access | undefined {
    const hit = this.cache.get(`${communityId}|${userId ?? ""}|${sessionId ?? ""}`);
    if (!hit?.known || Date.now() - hit.at >= this.settings.accessTtlMs) return undefined;
    return hit.known.access;
  }

  read(communityId: string, userId: string | null, sessionId: string | null): Promise<Access> {
    const key = `${communityId}|${userId ?? ""}|${sessionId ?? ""}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.settings.accessTtlMs) return hit.access;
    if (this.cache.size >= ACCESS_CACHE_MAX) this.sweep();
    if (this.cache.size >= ACCESS_CACHE_MAX) this.cache.clear();
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
    const entry: { at: number; access: Promise<Access>; known?: { access: Access } } = { at: Date.now(), access };
    access.then(
      (known) => (entry.known = { access: known }),
      // A failed read is not cached.
      () => this.cache.get(key) === entry && this.cache.delete(key),
    );
    this.cache.set(key, entry);
    return access;
  }

  /** Drops the expired entries. */
  sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.cache) if (now - entry.at >= this.settings.accessTtlMs) this.cache.delete(key);
  }

  /** Entries held (tests). */
  get size(): number {
    return this.cache.size;
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
