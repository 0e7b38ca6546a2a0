import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { Config } from "./config";
import type { Db } from "./db/client";
import type pg from "pg";
import type { Auth } from "./lib/auth";
import type { JobWorker } from "./lib/jobs";
import type { Mailer } from "./lib/mail";
import type { PgListener } from "./lib/pg-listener";
import type { PublicCache } from "./lib/public-cache";
import type { RateLimiter } from "./lib/rate-limit";
import type { RealtimeHub } from "./lib/realtime";
import type { ViewerLookup } from "./lib/session";
import type { Storage } from "./lib/storage";

/** What every feature gets: built once in app.ts, passed to each feature's routes. */
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
  log: FastifyBaseLogger;
  /** Answers that are the same for every anonymous visitor, kept briefly. */
  publicCache: PublicCache;
  /** Feed pages by community, category, cursor and visibility, dropped per community on any post change. */
  feedCache: PublicCache;
  /** The realtime bus: this process's subscribers of realtime_events (lib/realtime.ts). */
  realtime: RealtimeHub;
  /** The signed-in user, or null. */
  viewer: ViewerLookup;
  /** The signed-in user, or a 401. */
  requireViewer: (request: FastifyRequest) => Promise<Viewer>;
};

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
    viewerPromise?: Promise<Viewer | null>;
  }
  interface FastifyContextConfig {
    /** The route authenticates by a token of its own, not the session: the cross-site check skips it. */
    crossSite?: boolean;
  }
}
