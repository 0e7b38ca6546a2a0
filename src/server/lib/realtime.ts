import type { ServerResponse } from "node:http";
import { sql } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import type pg from "pg";
import { ROLE_RANK, type CommunityRole } from "#shared/roles";
import type { Queryable } from "#server/db/client";
import type { PgListener } from "./pg-listener";

/**
 * The realtime bus (DESIGN §2). An event is a row in `realtime_events` plus a NOTIFY on
 * `hearth_realtime` carrying `<channel>|<id>`, both in the writer's transaction: an event of a
 * rolled-back write is never announced, and NOTIFY reaches every process's listener at commit.
 * Each process reads the announced rows (one query per tick for all channels) and hands them to
 * its local subscribers; a reconnecting client names the last id it saw and gets what it missed
 * from the retained backlog, or a `resync` when that is not possible.
 *
 * Events are hints, never content: a client refetches through the API, which applies every rule.
 */

/** The PostgreSQL NOTIFY channel of the bus. */
export const REALTIME_NOTIFY_CHANNEL = "hearth_realtime";

export const communityChannel = (communityId: string) => `community:${communityId}`;
export const userChannel = (userId: string) => `user:${userId}`;

/**
 * Appends an event to a channel inside the caller's transaction (pass the `tx`). Returns its id.
 * Call it as late in the transaction as convenient: the id is taken now, the event is announced
 * at commit.
 */
export async function publish(db: Queryable, channel: string, payload: Record<string, unknown>): Promise<number> {
  if (!channel || channel.length > 200 || channel.includes("|"))
    throw new Error(`invalid realtime channel: ${channel}`);
  const res = await db.execute<{ id: number }>(sql`
    WITH e AS (
      INSERT INTO realtime_events (channel, payload) VALUES (${channel}, ${JSON.stringify(payload)}::jsonb)
      RETURNING id)
    SELECT id, pg_notify(${REALTIME_NOTIFY_CHANNEL}, ${channel} || '|' || id) FROM e`);
  return Number(res.rows[0].id);
}

export const MEMBERSHIPS_EVENT = { type: "memberships" } as const;

/**
 * Tells each user that their list of communities changed (joined, left, removed, role changed,
 * community deleted): a `memberships` event on their own channel, one statement for any number of
 * users, inside the caller's transaction. The event names nothing; the client refetches the list.
 */
export async function publishMembershipChange(db: Queryable, userIds: readonly string[]): Promise<void> {
  const ids = [...new Set(userIds)].filter(Boolean);
  if (ids.length === 0) return;
  await db.execute(sql`
    WITH e AS (
      INSERT INTO realtime_events (channel, payload)
      SELECT ${userChannel("")} || u, ${JSON.stringify(MEMBERSHIPS_EVENT)}::jsonb FROM unnest(${sql.param(ids)}::text[]) AS u
      RETURNING id, channel)
    SELECT pg_notify(${REALTIME_NOTIFY_CHANNEL}, channel || '|' || id) FROM e`);
}

// ---------------------------------------------------------------------------------------------
// Post events of a community

export type PostVisibility = "public" | "members" | "admins";
export const POST_EVENT_TYPES = ["post_created", "post_updated", "post_deleted"] as const;
export type PostEventType = (typeof POST_EVENT_TYPES)[number];
/** What is stored; the stream sends only `{ type, post_id }`. */
export type PostEventPayload = { type: PostEventType; post_id: string; visibility: PostVisibility };

const VISIBILITY_WIDTH: Record<PostVisibility, number> = { admins: 0, members: 1, public: 2 };

/**
 * Announces a change to a post on `community:<communityId>`, inside the caller's transaction.
 * Call it only for posts the feed shows (approved ones): a post held for approval is announced
 * as `post_created` when it is approved. When an edit narrows who may see the post, pass the old
 * visibility as `previousVisibility`: the event then goes to everyone who could see it before, so
 * their feed drops it (they learn nothing new: only the post's id travels).
 */
export function publishPostEvent(
  tx: Queryable,
  input: {
    communityId: string;
    postId: string;
    type: PostEventType;
    visibility: PostVisibility;
    previousVisibility?: PostVisibility;
  },
): Promise<number> {
  const widest =
    input.previousVisibility && VISIBILITY_WIDTH[input.previousVisibility] > VISIBILITY_WIDTH[input.visibility]
      ? input.previousVisibility
      : input.visibility;
  const payload: PostEventPayload = { type: input.type, post_id: input.postId, visibility: widest };
  return publish(tx, communityChannel(input.communityId), payload);
}

/**
 * Whether a viewer with this role in a community they may see may see a post of this visibility:
 * the feed's rule (posts.service `visibleTo`).
 */
export function mayViewPostVisibility(role: CommunityRole | null, visibility: PostVisibility): boolean {
  if (visibility === "public") return true;
  if (!role) return false;
  return visibility === "members" || ROLE_RANK[role] >= ROLE_RANK.admin;
}

export function parsePostEvent(payload: Record<string, unknown>): PostEventPayload | null {
  const { type, post_id, visibility } = payload;
  if (!(POST_EVENT_TYPES as readonly unknown[]).includes(type)) return null;
  if (typeof post_id !== "string") return null;
  if (visibility !== "public" && visibility !== "members" && visibility !== "admins") return null;
  return { type: type as PostEventType, post_id, visibility };
}

// ---------------------------------------------------------------------------------------------
// The hub: one per process

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
  /** How long a stream trusts a viewer's role and session before reading them again. */
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
  accessTtlMs: 5_000,
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
      for (const sub of this.channels.get(row.channel) ?? [])
        this.push(sub, { kind: "event", id, payload: row.payload });
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

// ---------------------------------------------------------------------------------------------
// Server-Sent Events

export type SseFrame = { id?: number | null; event: string; data: unknown };

export type SseOptions = {
  maxPerSecond: number;
  heartbeatMs: number;
  /** Reconnection delay the browser is told to use; a random spread avoids reconnect storms. */
  retryMs?: number;
  /** A client this far behind (bytes not yet taken by the socket) is dropped; it will reconnect. */
  maxBufferedBytes?: number;
};

/**
 * One SSE response. Takes over the reply (`reply.hijack()`), so it must be opened after every
 * check that may still answer with an error. Frames beyond `maxPerSecond` wait (up to one more
 * second's worth); past that, everything waiting is replaced by a single `resync` frame carrying
 * the newest id, so nothing is lost silently: the client refetches instead.
 */
export class SseStream {
  private readonly res: ServerResponse;
  private readonly sentAt: number[] = [];
  private queue: SseFrame[] = [];
  /** A pending resync that replaces everything before it; `id` is the newest id it stands for. */
  private overflow: { id: number | null } | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly closeHandlers: (() => void)[] = [];
  private ended = false;

  constructor(
    reply: FastifyReply,
    private readonly opts: SseOptions,
  ) {
    reply.hijack();
    this.res = reply.raw;
    this.res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    });
    reply.request.raw.socket?.setNoDelay(true);
    this.res.write(`retry: ${Math.round(opts.retryMs ?? 2000 + Math.random() * 4000)}\n\n`);
    this.res.on("close", () => this.cleanup());
    this.heartbeat = setInterval(() => this.write(": ping\n\n"), opts.heartbeatMs);
    this.heartbeat.unref();
  }

  get closed(): boolean {
    return this.ended;
  }

  onClose(fn: () => void): void {
    if (this.ended) fn();
    else this.closeHandlers.push(fn);
  }

  send(frame: SseFrame): void {
    if (this.ended) return;
    if (this.overflow) {
      if (frame.id != null) this.overflow.id = frame.id;
    } else if (this.queue.length === 0 && this.mayWriteNow()) {
      this.writeFrame(frame);
    } else if (this.queue.length < this.opts.maxPerSecond) {
      this.queue.push(frame);
    } else {
      this.overflow = { id: frame.id ?? this.newestQueuedId() };
      this.queue = [];
    }
    this.scheduleDrain();
  }

  /** Asks the client to refetch; replaces whatever is still waiting. */
  resync(id: number | null): void {
    if (this.ended) return;
    const newest = id ?? this.overflow?.id ?? this.newestQueuedId();
    this.queue = [];
    this.overflow = { id: newest };
    this.drain();
    this.scheduleDrain();
  }

  close(): void {
    if (this.ended) return;
    this.res.end();
    this.cleanup();
  }

  private newestQueuedId(): number | null {
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i].id != null) return this.queue[i].id ?? null;
    return null;
  }

  private mayWriteNow(): boolean {
    return this.sentAt.length < this.opts.maxPerSecond || Date.now() - this.sentAt[0] >= 1000;
  }

  private drain() {
    while (!this.ended && (this.overflow || this.queue.length > 0) && this.mayWriteNow()) {
      if (this.overflow) {
        const { id } = this.overflow;
        this.overflow = null;
        this.writeFrame({ id, event: "resync", data: { type: "resync" } });
      } else {
        this.writeFrame(this.queue.shift() as SseFrame);
      }
    }
  }

  private scheduleDrain() {
    if (this.timer || this.ended || (!this.overflow && this.queue.length === 0)) return;
    const wait = Math.max(0, this.sentAt[0] + 1000 - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.drain();
      this.scheduleDrain();
    }, wait);
    this.timer.unref();
  }

  private writeFrame(frame: SseFrame) {
    const now = Date.now();
    this.sentAt.push(now);
    if (this.sentAt.length > this.opts.maxPerSecond) this.sentAt.shift();
    const id = frame.id != null ? `id: ${frame.id}\n` : "";
    this.write(`${id}event: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`);
  }

  private write(chunk: string) {
    if (this.ended) return;
    this.res.write(chunk);
    if (this.res.writableLength > (this.opts.maxBufferedBytes ?? 256 * 1024)) this.close();
  }

  private cleanup() {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.heartbeat);
    if (this.timer) clearTimeout(this.timer);
    this.queue = [];
    this.overflow = null;
    for (const fn of this.closeHandlers.splice(0)) {
      try {
        fn();
      } catch {
        // a close handler must not stop the others
      }
    }
  }
}

/** A Last-Event-ID value as an event id, or null when absent or not one. */
export function parseEventId(value: unknown): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (typeof raw !== "string" || !/^\d{1,15}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}
