import { createHash, randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { CALENDAR_MESSAGES, EVENT_LIMITS, calendarFeedPath } from "#shared/calendar";
import type { AppContext } from "#server/context";
import type { Db } from "#server/db/client";
import { calendarFeeds } from "#server/db/schema/index";
import { notFound } from "#server/lib/errors";
import type { PgListener } from "#server/lib/pg-listener";
import { CALENDAR_CHANNEL } from "#server/lib/public-cache";
import { mayAttendSql, occurrenceSeenSql, userSeesSql } from "./event-access";
import { buildCalendar, buildFeedCalendar, icsFileName, type IcsOccurrence } from "./ics";

/*
 * Calendar files and private feeds (issue 19). Which occurrences a file or a feed holds is decided
 * only by event-access.ts: a download by who sees the occurrence, a feed by who may attend, so a
 * person who loses access to a community (leaves, is removed, an audience changes) loses its events
 * from their feed on its next fetch, with nothing to clean up.
 */

/** A feed holds occurrences that ended at most this long ago (so recent ones stay in the app's history)… */
export const FEED_PAST_DAYS = 60;
/** …and at most this many, soonest first (a feed of 20 busy communities stays a small file). */
export const FEED_MAX_EVENTS = 2000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A feed token: 32 random bytes, base64url (43 characters). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

type Row = Omit<IcsOccurrence, "starts_at" | "ends_at" | "updated_at"> & {
  starts_at: Date | string;
  ends_at: Date | string;
  updated_at: Date | string;
};

const COLUMNS = sql`o.id, o.community_id, cm.name AS community_name, o.title, o.description, o.starts_at, o.ends_at,
  o.location_kind, o.place, o.status, o.updated_at`;

const toOccurrence = (r: Row): IcsOccurrence => ({
  ...r,
  starts_at: new Date(r.starts_at),
  ends_at: new Date(r.ends_at),
  updated_at: new Date(r.updated_at),
});

/** One occurrence as an .ics download, for whoever sees it; anyone else gets the same 404 as for a missing id. */
export async function occurrenceIcs(
  db: Db,
  viewerId: string,
  occurrenceId: string,
  origin: string,
): Promise<{ body: string; fileName: string }> {
  if (!UUID.test(occurrenceId)) throw notFound(CALENDAR_MESSAGES.notFound);
  const res = await db.execute<Row>(sql`
    SELECT ${COLUMNS}
      FROM event_occurrences o JOIN communities cm ON cm.id = o.community_id
     WHERE o.id = ${occurrenceId} AND ${userSeesSql(viewerId)}`);
  const row = res.rows[0];
  if (!row) throw notFound(CALENDAR_MESSAGES.notFound);
  const occurrence = toOccurrence(row);
  return {
    body: buildCalendar([occurrence], { origin, name: occurrence.title }),
    fileName: icsFileName(occurrence.title),
  };
}

/**
 * The occurrences of a person's feed: every one they may attend (event-access.ts), from 60 days back
 * to the horizon, the soonest 2,000. Each community's are read in order from its (community_id,
 * starts_at) index, at most 2,000 each, so a busy community costs a bounded index range, not a sort.
 */
export async function feedOccurrences(db: Db, userId: string): Promise<IcsOccurrence[]> {
  const res = await db.execute<Row>(sql`
    SELECT x.* FROM community_members m JOIN communities c ON c.id = m.community_id
    CROSS JOIN LATERAL (
      SELECT o.id, o.community_id, c.name AS community_name, o.title, o.description, o.starts_at, o.ends_at,
             o.location_kind, o.place, o.status, o.updated_at
        FROM event_occurrences o
       WHERE o.community_id = m.community_id
         AND o.starts_at > now() - make_interval(days => ${FEED_PAST_DAYS}, mins => ${EVENT_LIMITS.durationMaxMinutes})
         AND o.ends_at >= now() - make_interval(days => ${FEED_PAST_DAYS})
         AND o.starts_at < now() + make_interval(days => ${EVENT_LIMITS.horizonDays})
         AND ${occurrenceSeenSql()} AND ${mayAttendSql(userId)}
       ORDER BY o.starts_at, o.id
       LIMIT ${FEED_MAX_EVENTS}) x
     WHERE m.user_id = ${userId}
     ORDER BY x.starts_at, x.id
     LIMIT ${FEED_MAX_EVENTS}`);
  return res.rows.map(toOccurrence);
}

/** A built feed: its text, the same bytes gzipped once when it was built (calendar apps ask for gzip), its entity tag. */
export type Feed = { body: string; gzip: Buffer; etag: string };
type Kept = Feed & { communities: Set<string>; expires: number };

/**
 * Built feeds, per person, for a minute at most; dropped as soon as the database announces a change
 * to the events, the members or the calendar switch of one of their communities (migrations 0020 and
 * 0021). Only while the LISTEN connection is up, as the other caches.
 */
class FeedCache {
  private readonly kept = new Map<string, Kept>();
  private readonly pending = new Map<string, Promise<Feed>>();
  constructor(private readonly listener: PgListener) {
    listener.on(CALENDAR_CHANNEL, (communityId) => {
      for (const [userId, entry] of this.kept) if (entry.communities.has(communityId)) this.drop(userId);
    });
    listener.onReset(() => {
      for (const userId of [...this.kept.keys()]) this.drop(userId);
    });
  }

  private drop(userId: string) {
    this.kept.delete(userId);
    this.pending.delete(userId);
  }

  get(userId: string, build: () => Promise<{ feed: Feed; communities: string[] }>): Promise<Feed> {
    const hit = this.kept.get(userId);
    if (hit && hit.expires > Date.now() && this.listener.isConnected) return Promise.resolve(hit);
    const running = this.pending.get(userId);
    if (running) return running;
    const started = build().then(({ feed, communities }) => {
      if (this.pending.get(userId) === started && this.listener.isConnected) {
        if (this.kept.size >= FEEDS_KEPT) this.kept.delete(this.kept.keys().next().value!);
        this.kept.set(userId, { ...feed, communities: new Set(communities), expires: Date.now() + 60_000 });
      }
      if (this.pending.get(userId) === started) this.pending.delete(userId);
      return feed;
    });
    started.catch(() => this.pending.get(userId) === started && this.pending.delete(userId));
    this.pending.set(userId, started);
    return started;
  }
}

/** Feeds kept per process (about 1.5 MB each and its gzip about a tenth of that at the 2,000-event cap, most far smaller). */
const FEEDS_KEPT = 200;
const feedCaches = new WeakMap<PgListener, FeedCache>();
const feedCacheOf = (listener: PgListener) => {
  let cache = feedCaches.get(listener);
  if (!cache) feedCaches.set(listener, (cache = new FeedCache(listener)));
  return cache;
};

/**
 * A feed's file, gzipped once per build (not on every fetch: a 2,000-event feed costs ~15 ms to
 * gzip), and its entity tag (a hash of the text: an unchanged feed answers 304).
 */
export async function feedIcs(ctx: AppContext, token: string, origin: string): Promise<Feed> {
  if (!TOKEN.test(token)) throw notFound(CALENDAR_MESSAGES.feedNotFound);
  // The token is looked up on every fetch: a reset or turned-off feed stops at once.
  const [feed] = await ctx.db
    .select({ userId: calendarFeeds.userId })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.token, token))
    .limit(1);
  if (!feed) throw notFound(CALENDAR_MESSAGES.feedNotFound);
  return feedCacheOf(ctx.listener).get(feed.userId, async () => {
    const [occurrences, memberships] = await Promise.all([
      feedOccurrences(ctx.db, feed.userId),
      ctx.db.execute<{ community_id: string }>(
        sql`SELECT community_id FROM community_members WHERE user_id = ${feed.userId}`,
      ),
    ]);
    const body = buildFeedCalendar(occurrences, { origin, name: "Hearth" });
    return {
      feed: {
        body,
        gzip: gzipSync(body, { level: 6 }),
        etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
      },
      communities: memberships.rows.map((r) => r.community_id),
    };
  });
}

export type FeedInfo = { url: string | null; created_at: string | null };

const feedUrl = (origin: string, token: string) => `${origin}${calendarFeedPath(token)}`;

/** The signed-in person's feed URL, if they made one. */
export async function getFeed(db: Db, userId: string, origin: string): Promise<FeedInfo> {
  const [feed] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId)).limit(1);
  if (!feed) return { url: null, created_at: null };
  return { url: feedUrl(origin, feed.token), created_at: feed.createdAt.toISOString() };
}

/** Makes the person's feed, or gives it a new token: the old URL stops working at once. */
export async function rotateFeed(db: Db, userId: string, origin: string): Promise<FeedInfo> {
  const token = randomBytes(32).toString("base64url");
  const [feed] = await db
    .insert(calendarFeeds)
    .values({ userId, token })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { token, createdAt: sql`now()` } })
    .returning();
  return { url: feedUrl(origin, feed.token), created_at: feed.createdAt.toISOString() };
}

/** Turns the person's feed off: its URL answers 404 from now on. */
export async function revokeFeed(db: Db, userId: string): Promise<void> {
  await db.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId));
}
