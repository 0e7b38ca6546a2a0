import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { Config } from "./config";
import type { Database, Db } from "./db/client";
import type pg from "pg";
import { Announcer } from "./lib/announcer";
import { createAuth, type Auth } from "./lib/auth";
import { unauthorized } from "./lib/errors";
import { JobWorker } from "./lib/jobs";
import { createMailer, type Mailer } from "./lib/mail";
import { PgListener } from "./lib/pg-listener";
import { CALENDAR_CHANNEL, dropFeedChange, MEMBER_CHANNEL, onFeedChange, PublicCache } from "./lib/public-cache";
import { UnreadCountCache } from "./lib/unread-cache";
import { FeedViewerCache } from "./lib/feed-viewer-cache";
import { createRateLimiter, type RateLimiter } from "./lib/rate-limit";
import { RealtimeHub } from "./lib/realtime";
import { createViewerLookup, type ViewerLookup } from "./lib/session";
import { createStorage, type Storage } from "./lib/storage";

/** What every feature gets: built once (createAppContext, from app.ts), passed to each feature's routes. */
export type AppContext = {
  config: Config;
  db: Db;
  pool: pg.Pool;
  auth: Auth;
  mailer: Mailer;
  storage: Storage;
  rateLimiter: RateLimiter;
  worker: JobWorker;
  /** This process's LISTEN connection (cache invalidation, realtime fan-out). */
  listener: PgListener;
  /** Announcements the app sends itself after a commit, batched (lib/announcer.ts): like toggles'. */
  announcer: Announcer;
  log: FastifyBaseLogger;
  /** Answers that are the same for every anonymous visitor, kept briefly. */
  publicCache: PublicCache;
  /** Feed pages by community, category, cursor and visibility, dropped per community on any post change. */
  feedCache: PublicCache;
  /** Month views of community calendars, dropped per community by the database (migration 0020). */
  calendarCache: PublicCache;
  /**
   * Each member's role and standing per community, for the hot reads (community-access.ts):
   * dropped per member in every process by the database (migration 0028).
   */
  memberCache: PublicCache;
  /** Each person's unread notification count (lib/unread-cache.ts). */
  unreadCache: UnreadCountCache;
  /** What a signed-in feed page adds to the shared one: the reader's likes, saves, votes, pending posts (lib/feed-viewer-cache.ts). */
  feedViewerCache: FeedViewerCache;
  /** The realtime bus: this process's subscribers of realtime_events (lib/realtime.ts). */
  realtime: RealtimeHub;
  /** The signed-in user, or null. */
  viewer: ViewerLookup;
  /** The signed-in user, or a 401. */
  requireViewer: (request: FastifyRequest) => Promise<Viewer>;
};

/**
 * Makes the context: the mailer and the job worker that delivers its mail, Better Auth, this
 * process's LISTEN connection (started here), the viewer lookup, the caches and the realtime hub.
 * The worker is not started and no handlers but mail's are registered: app.ts does both.
 */
export async function createAppContext(opts: {
  config: Config;
  database: Database;
  storage?: Storage;
  log: FastifyBaseLogger;
}): Promise<AppContext> {
  const { config, database, log } = opts;
  const mailer = createMailer({
    db: database.db,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    onQueued: () => worker.kick(),
    // Unsent mail is a warning where it waits for the operators; on a developer's machine with the
    // local outbox on it is where mail is meant to go, so it is only noted.
    log: config.devMailbox ? { warn: (obj, msg) => log.info(obj, msg) } : log,
  });
  const worker: JobWorker = new JobWorker(database.db, { mail: mailer.deliverJob }, log);
  const auth = createAuth({ config, db: database.db, mailer });
  const listener = new PgListener(database.url, log);
  const viewer = createViewerLookup({
    auth,
    pool: database.pool,
    secret: config.authSecret,
    secureCookies: config.secureCookies,
    listener,
  });
  const publicCache = new PublicCache(listener);
  const feedCache = new PublicCache(listener, { channel: null, scoped: true, maxEntries: 2_000 });
  onFeedChange(listener, (change) => (change ? dropFeedChange(feedCache, change) : feedCache.clear()));
  const calendarCache = new PublicCache(listener, {
    channel: CALENDAR_CHANNEL,
    scoped: true,
    ttlMs: 60_000,
    maxEntries: 500,
  });
  const memberCache = new PublicCache(listener, {
    channel: MEMBER_CHANNEL,
    scoped: true,
    ttlMs: 60_000,
    maxEntries: 20_000,
  });
  const unreadCache = new UnreadCountCache(listener, { ttlMs: 60_000, maxEntries: 20_000 });
  const feedViewerCache = new FeedViewerCache(listener, { ttlMs: 60_000, maxEntries: 20_000 });
  const realtime = new RealtimeHub(database.pool, listener, log);
  await listener.start();
  return {
    config,
    db: database.db,
    pool: database.pool,
    auth,
    mailer,
    storage: opts.storage ?? (await createStorage(config)),
    rateLimiter: createRateLimiter(database.db, config.rateLimits),
    worker,
    listener,
    announcer: new Announcer(database.pool, log),
    log,
    publicCache,
    feedCache,
    calendarCache,
    memberCache,
    unreadCache,
    feedViewerCache,
    realtime,
    viewer,
    requireViewer: async (request) => {
      const v = await viewer(request);
      if (!v) throw unauthorized();
      return v;
    },
  };
}

export type Viewer = {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  sessionId: string;
  /** The user_profiles row as JSON (snake_case columns), read with the session. */
  profile: Record<string, unknown> | null;
};

declare module "fastify" {
  interface FastifyRequest {
    /** The session lookup of this request, made once (lib/session.ts); null until asked. */
    viewerPromise: Promise<Viewer | null> | null;
  }
  interface FastifyContextConfig {
    /** The route authenticates by a token of its own, not the session: the cross-site check skips it. */
    crossSite?: boolean;
  }
}
