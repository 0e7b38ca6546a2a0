import type pg from "pg";
import type { PgListener } from "./pg-listener";

/**
 * The realtime hub, one per process (the bus is described in realtime.ts): it listens for the
 * NOTIFYs of `hearth_realtime`, reads the announced events (one query per tick for all channels)
 * and hands them to this process's subscribers, replaying a reconnecting client's backlog.
 */

/** The PostgreSQL NOTIFY channel of the bus. */
export const REALTIME_NOTIFY_CHANNEL = "hearth_realtime";

export type RealtimeMessage =
  /** The subscription is live. `id` (on a fresh subscription) is the cursor to resume from. */
  | { kind: "ready"; id: number | null }
  | { kind: "event"; id: number; payload: Record<string, unknown> }
  /** Events may have been missed: the client must refetch. `id`, when known, is the new cursor. */
  | { kind: "resync"; id: number | null };

export type Subscription = { close: () => void };

export type RealtimeSettings = {
  /** Most events replayed after a Last-Event-ID; a larger gap answers `resync`. */
  replayLimit: number;
  /** Events kept per channel (at least replayLimit) and how long any event is kept. */
  keepPerChannel: number;
  keepSeconds: number;
  /** Prune after this many announced events, or on the first event after pruneEveryMs. */
  pruneEveryEvents: number;
  pruneEveryMs: number;
  /** Frames per second per client; more are held back briefly, then coalesced into one `resync`. */
  maxPerSecond: number;
  heartbeatMs: number;
  /**
   * How long a stream trusts a viewer's role and session before reading them again, at most: any
   * change to them is announced by the database and drops them at once (AccessCache).
   */
  accessTtlMs: number;
  /** How often an idle stream re-checks access (to close one whose viewer lost it). */
  accessRecheckMs: number;
  /** Concurrent streams per signed-in user, and per address for anonymous viewers (per process). */
  maxStreamsPerUser: number;
  maxStreamsPerAddress: number;
  /** New streams per second per process (burst: twice that); more answer 429. */
  joinsPerSecond: number;
};

export const DEFAULT_REALTIME_SETTINGS: RealtimeSettings = {
  replayLimit: 100,
  keepPerChannel: 1000,
  keepSeconds: 3600,
  pruneEveryEvents: 500,
  pruneEveryMs: 5 * 60_000,
  maxPerSecond: 10,
  heartbeatMs: 25_000,
  accessTtlMs: 60_000,
  accessRecheckMs: 30_000,
  maxStreamsPerUser: 10,
  maxStreamsPerAddress: 20,
  joinsPerSecond: 200,
};

type Log = { warn: (obj: unknown, msg?: string) => void; error: (obj: unknown, msg?: string) => void };

type Sub = {
  channel: string;
  deliver: (message: RealtimeMessage) => void;
  /** Messages arriving while the backlog is read; null once live. */
  buffer: RealtimeMessage[] | null;
  /**
   * Ids the backlog replayed. An event committed before the subscription may still be announced
   * after the replay (NOTIFY arrives late): it must not be delivered twice. Kept for a while only.
   */
  replayed: Set<number> | null;
  closed: boolean;
};

/** How long a subscription remembers what its replay sent (a late NOTIFY comes well within it). */
const REPLAYED_MEMORY_MS = 60_000;

type EventRow = { id: number | string; channel: string; payload: Record<string, unknown> };

/** Advisory lock key so that one process at a time prunes ("hearth_rt"). */
const PRUNE_LOCK = 0x68656172;

export class RealtimeHub {
  readonly settings: RealtimeSettings;
  private readonly channels = new Map<string, Set<Sub>>();
  /** Announced ids not yet read, with their channel. */
  private pending = new Map<number, string>();
  private flushScheduled = false;
  private flushing: Promise<void> = Promise.resolve();
  private announcedSincePrune = 0;
  private lastPrune = Date.now();
  private pruning = false;
  private readonly touched = new Set<string>();

  constructor(
    private readonly pool: pg.Pool,
    listener: PgListener,
    private readonly log: Log,
    settings: Partial<RealtimeSettings> = {},
  ) {
    this.settings = { ...DEFAULT_REALTIME_SETTINGS, ...settings };
    listener.on(REALTIME_NOTIFY_CHANNEL, (payload) => this.announced(payload));
    // Notifications sent while the listening connection was away are lost.
    listener.onReset(() => this.resyncAll());
  }

  /**
   * Delivers the channel's events to `deliver`, in order. With `lastEventId`, first the events
   * after it (at most `replayLimit`), or a `resync` when more were missed or they are no longer
   * kept; without it, a `ready` carrying the current cursor. The first message is always `ready`
   * or `resync`.
   */
  subscribe(channel: string, lastEventId: number | null, deliver: (message: RealtimeMessage) => void): Subscription {
    const sub: Sub = { channel, deliver, buffer: [], replayed: null, closed: false };
    let set = this.channels.get(channel);
    if (!set) this.channels.set(channel, (set = new Set()));
    set.add(sub);
    void this.begin(sub, lastEventId);
    return { close: () => this.remove(sub) };
  }

  /** Subscriptions open in this process (all channels). */
  get subscriberCount(): number {
    let n = 0;
    for (const set of this.channels.values()) n += set.size;
    return n;
  }

  /** Deletes events older than keepSeconds and all but the newest keepPerChannel of the given channels. */
  async prune(channels: string[] = []): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_xact_lock($1) AS ok", [PRUNE_LOCK]);
      if (rows[0]?.ok) {
        // Both deletions remove a prefix (by id) of every channel, so an id still at or after the
        // oldest kept row has lost nothing after it (see begin()). The newest row always stays.
        await client.query(
          `DELETE FROM realtime_events WHERE id < coalesce(
             (SELECT min(id) FROM realtime_events WHERE created_at >= now() - make_interval(secs => $1)),
             (SELECT max(id) FROM realtime_events))`,
          [this.settings.keepSeconds],
        );
        if (channels.length > 0) {
          await client.query(
            `DELETE FROM realtime_events e
               USING (SELECT c.channel,
                             (SELECT x.id FROM realtime_events x WHERE x.channel = c.channel
                               ORDER BY x.id DESC OFFSET $2 LIMIT 1) AS floor
                        FROM unnest($1::text[]) AS c(channel)) f
              WHERE e.channel = f.channel AND e.id < f.floor`,
            [channels, Math.max(this.settings.keepPerChannel, this.settings.replayLimit + 1) - 1],
          );
        }
      }
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  private remove(sub: Sub) {
    sub.closed = true;
    const set = this.channels.get(sub.channel);
    if (!set) return;
    set.delete(sub);
    if (set.size === 0) this.channels.delete(sub.channel);
  }

  private push(sub: Sub, message: RealtimeMessage) {
    if (sub.closed) return;
    if (sub.buffer) {
      sub.buffer.push(message);
      return;
    }
    if (message.kind === "event" && sub.replayed?.has(message.id)) return;
    try {
      sub.deliver(message);
    } catch (err) {
      this.log.error({ err }, "realtime subscriber failed");
    }
  }

  private async begin(sub: Sub, lastEventId: number | null) {
    let first: RealtimeMessage[];
    try {
      const bounds = await this.pool.query<{ oldest: number | null; newest: number | null }>(
        "SELECT min(id) AS oldest, max(id) AS newest FROM realtime_events",
      );
      const oldest = bounds.rows[0]?.oldest == null ? null : Number(bounds.rows[0].oldest);
      const newest = bounds.rows[0]?.newest == null ? null : Number(bounds.rows[0].newest);
      if (lastEventId === null) {
        first = [{ kind: "ready", id: newest ?? 0 }];
      } else if (
        // Older than what is kept: pruning removes a prefix of ids, so events after it may be gone.
        (oldest !== null && lastEventId + 1 < oldest) ||
        // An id this database never gave (a reset database): start over.
        lastEventId > (newest ?? 0)
      ) {
        first = [{ kind: "resync", id: newest }];
      } else {
        const { rows } = await this.pool.query<EventRow>(
          "SELECT id, channel, payload FROM realtime_events WHERE channel = $1 AND id > $2 ORDER BY id LIMIT $3",
          [sub.channel, lastEventId, this.settings.replayLimit + 1],
        );
        first =
          rows.length > this.settings.replayLimit
            ? [{ kind: "resync", id: newest }]
            : [
                { kind: "ready", id: null },
                ...rows.map((r): RealtimeMessage => ({ kind: "event", id: Number(r.id), payload: r.payload })),
              ];
      }
    } catch (err) {
      this.log.warn({ err }, "realtime backlog could not be read");
      first = [{ kind: "resync", id: null }];
    }
    if (sub.closed) return;
    // After a resync the client refetches, which covers every event already announced.
    const buffered = first[0].kind === "resync" ? [] : (sub.buffer ?? []);
    sub.buffer = null;
    const replayed = new Set(first.flatMap((m) => (m.kind === "event" ? [m.id] : [])));
    for (const m of first) this.push(sub, m);
    for (const m of buffered) if (m.kind !== "event" || !replayed.has(m.id)) this.push(sub, m);
    if (replayed.size > 0) {
      sub.replayed = replayed;
      setTimeout(() => (sub.replayed = null), REPLAYED_MEMORY_MS).unref();
    }
  }

  private announced(payload: string) {
    const bar = payload.lastIndexOf("|");
    const channel = payload.slice(0, bar);
    const id = Number(payload.slice(bar + 1));
    if (bar <= 0 || !Number.isSafeInteger(id)) return;
    this.touched.add(channel);
    this.announcedSincePrune++;
    this.maybePrune();
    if (!this.channels.has(channel)) return;
    this.pending.set(id, channel);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Everything announced in this tick is read with one query.
    setImmediate(() => {
      this.flushScheduled = false;
      this.flushing = this.flushing.then(() => this.flush());
    });
  }

  private async flush() {
    const batch = this.pending;
    this.pending = new Map();
    if (batch.size === 0) return;
    let rows: EventRow[];
    try {
      rows = (
        await this.pool.query<EventRow>(
          "SELECT id, channel, payload FROM realtime_events WHERE id = ANY($1::bigint[]) ORDER BY id",
          [[...batch.keys()]],
        )
      ).rows;
    } catch (err) {
      this.log.warn({ err }, "realtime events could not be read");
      for (const channel of new Set(batch.values())) {
        for (const sub of this.channels.get(channel) ?? []) this.push(sub, { kind: "resync", id: null });
      }
      return;
    }
    for (const row of rows) {
      const id = Number(row.id);
      if (batch.get(id) !== row.channel) continue;
      // One message for every subscriber (they only read it): 10,000 streams make one object, not 10,000.
      const message: RealtimeMessage = { kind: "event", id, payload: row.payload };
      for (const sub of this.channels.get(row.channel) ?? []) this.push(sub, message);
    }
  }

  private resyncAll() {
    for (const set of this.channels.values()) for (const sub of set) this.push(sub, { kind: "resync", id: null });
  }

  private maybePrune() {
    if (this.pruning) return;
    const due =
      this.announcedSincePrune >= this.settings.pruneEveryEvents ||
      Date.now() - this.lastPrune >= this.settings.pruneEveryMs;
    if (!due) return;
    const channels = [...this.touched];
    this.touched.clear();
    this.announcedSincePrune = 0;
    this.lastPrune = Date.now();
    this.pruning = true;
    this.prune(channels)
      .catch((err) => this.log.warn({ err }, "realtime backlog could not be pruned"))
      .finally(() => {
        this.pruning = false;
      });
  }
}
