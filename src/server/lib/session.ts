import { createHmac, timingSafeEqual } from "node:crypto";
import { type Cookies, parseCookie } from "cookie";
import { fromNodeHeaders } from "better-auth/node";
import type { FastifyRequest } from "fastify";
import type pg from "pg";
import type { Viewer } from "#server/context";
import type { Auth } from "./auth";
import type { PgListener } from "./pg-listener";

/** Better Auth's session settings, shared with lib/auth.ts. */
export const SESSION_EXPIRES_IN_S = 30 * 24 * 3600;
export const SESSION_UPDATE_AGE_S = 24 * 3600;

/** How long a cached lookup may be used without news from the database (a safety net: triggers evict). */
const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 20_000;

const VIEWER_BY_TOKEN = `
  SELECT s.id AS session_id, s.expires_at, s.updated_at,
         u.id, u.email, u.name, u.email_verified, coalesce(u.two_factor_enabled, false) AS two_factor_enabled,
         to_jsonb(p) AS profile
  FROM session s
  JOIN "user" u ON u.id = s.user_id
  LEFT JOIN user_profiles p ON p.user_id = u.id
  WHERE s.token = $1`;

type Row = {
  session_id: string;
  expires_at: Date;
  updated_at: Date;
  id: string;
  email: string;
  name: string;
  email_verified: boolean;
  two_factor_enabled: boolean;
  profile: Record<string, unknown> | null;
};

type Entry = {
  viewer: Viewer;
  expiresAt: number;
  refreshAt: number;
  cachedUntil: number;
  /** The signed cookie value whose signature was checked when this entry was kept. */
  cookie?: string;
};

export type ViewerLookup = {
  (request: FastifyRequest): Promise<Viewer | null>;
  /** Drops what is cached about a user (after a write in this process; other processes hear the trigger). */
  evictUser: (userId: string) => void;
  /**
   * Whether a session still exists and has not expired: from the cache when it holds the session
   * (the triggers evict it the moment the session row changes or goes), else one query. For
   * long-lived connections (realtime streams) that must notice a sign-out.
   */
  sessionAlive: (sessionId: string) => Promise<boolean>;
  cacheSize: () => number;
  /** Drops the expired entries (the background work calls it twice a minute). */
  sweep: () => void;
};

/** Better Auth's session cookie (with the `__Secure-` prefix when cookies are Secure). */
export const SESSION_COOKIE = "hearth.session_token";

/**
 * Where the database announces a change to a session (`s:<session id>`) or to a user or profile
 * (`u:<user id>`), whatever made it: the triggers of the auth tables.
 */
export const AUTH_CHANNEL = "hearth_auth";

const parsedCookies = new WeakMap<FastifyRequest, Cookies>();

/**
 * The request's cookies, parsed once and only when something asks (issue 23: no cookie hook on
 * every request; the session lookup and the cache headers are the only readers).
 */
export function requestCookies(request: FastifyRequest): Cookies {
  let cookies = parsedCookies.get(request);
  if (!cookies) {
    const header = request.headers.cookie;
    cookies = header ? parseCookie(header) : {};
    parsedCookies.set(request, cookies);
  }
  return cookies;
}

/** Whether the request carries a session cookie at all (valid or not): its answer may depend on it. */
export function hasSessionCookie(request: FastifyRequest): boolean {
  if (!request.headers.cookie) return false;
  for (const name in requestCookies(request)) if (name.endsWith(SESSION_COOKIE)) return true;
  return false;
}

/**
 * The signed-in user of a request, looked up once per request: the cookie's HMAC is verified, then
 * session, user and profile come from one prepared query, cached in this process. Every change to a
 * session, user or profile row is announced by a trigger (NOTIFY hearth_auth), which evicts the
 * entry in every process; while the listening connection is down nothing is cached. A session due for its
 * sliding refresh goes through Better Auth, which extends it.
 */
export function createViewerLookup(opts: {
  auth: Auth;
  pool: pg.Pool;
  secret: string;
  secureCookies: boolean;
  listener: PgListener;
}): ViewerLookup {
  const cookieName = `${opts.secureCookies ? "__Secure-" : ""}${SESSION_COOKIE}`;
  const cache = new Map<string, Entry>();
  const tokensBySession = new Map<string, string>();
  const tokensByUser = new Map<string, Set<string>>();

  const drop = (token: string) => {
    const entry = cache.get(token);
    if (!entry) return;
    cache.delete(token);
    tokensBySession.delete(entry.viewer.sessionId);
    const set = tokensByUser.get(entry.viewer.id);
    set?.delete(token);
    if (set && set.size === 0) tokensByUser.delete(entry.viewer.id);
  };
  const evictUser = (userId: string) => {
    for (const token of [...(tokensByUser.get(userId) ?? [])]) drop(token);
  };
  const clear = () => {
    cache.clear();
    tokensBySession.clear();
    tokensByUser.clear();
  };
  opts.listener.on(AUTH_CHANNEL, (payload) => {
    if (payload.startsWith("s:")) {
      const token = tokensBySession.get(payload.slice(2));
      if (token) drop(token);
    } else if (payload.startsWith("u:")) {
      evictUser(payload.slice(2));
    }
  });
  opts.listener.onReset(clear);

  const remember = (token: string, entry: Entry) => {
    if (!opts.listener.isConnected) return;
    if (cache.size >= CACHE_MAX) drop(cache.keys().next().value as string);
    cache.set(token, entry);
    tokensBySession.set(entry.viewer.sessionId, token);
    let set = tokensByUser.get(entry.viewer.id);
    if (!set) tokensByUser.set(entry.viewer.id, (set = new Set()));
    set.add(token);
  };

  const query = async (token: string): Promise<Entry | null> => {
    const res = await opts.pool.query<Row>({ name: "viewer-by-token", text: VIEWER_BY_TOKEN, values: [token] });
    const row = res.rows[0];
    if (!row) return null;
    return {
      viewer: {
        id: row.id,
        email: row.email,
        name: row.name,
        emailVerified: row.email_verified,
        twoFactorEnabled: row.two_factor_enabled,
        sessionId: row.session_id,
        profile: row.profile,
      },
      expiresAt: row.expires_at.getTime(),
      refreshAt: row.updated_at.getTime() + SESSION_UPDATE_AGE_S * 1000,
      cachedUntil: Date.now() + CACHE_TTL_MS,
    };
  };

  const lookup = async (request: FastifyRequest): Promise<Viewer | null> => {
    const value = requestCookies(request)[cookieName];
    if (!value) return null;
    const dot = value.lastIndexOf(".");
    if (dot <= 0) return null;
    const token = value.slice(0, dot);
    let entry = cache.get(token);
    // A cookie identical to the one verified when its session was kept needs no second HMAC (issue 23).
    if (entry?.cookie !== value) {
      const given = Buffer.from(value.slice(dot + 1), "base64");
      const expected = createHmac("sha256", opts.secret).update(token).digest();
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    }

    const now = Date.now();
    if (entry && entry.cachedUntil <= now) {
      drop(token);
      entry = undefined;
    }
    if (!entry) {
      const fresh = await query(token);
      if (!fresh) return null;
      entry = fresh;
      if (entry.refreshAt <= now) {
        // Better Auth extends the session (and the trigger tells every process); then read it again.
        const headers = fromNodeHeaders(request.headers);
        headers.set("x-hearth-client-ip", request.ip); // Better Auth's one source of the address
        await opts.auth.api.getSession({ headers });
        const refreshed = await query(token);
        if (!refreshed) return null;
        entry = refreshed;
      }
      entry.cookie = value;
      if (entry.expiresAt > now) remember(token, entry);
    }
    if (entry.expiresAt <= now) {
      drop(token);
      return null;
    }
    return entry.viewer;
  };

  const viewer = ((request: FastifyRequest) => {
    request.viewerPromise ??= lookup(request);
    return request.viewerPromise;
  }) as ViewerLookup;
  viewer.evictUser = evictUser;
  viewer.sessionAlive = async (sessionId) => {
    const token = tokensBySession.get(sessionId);
    const entry = token ? cache.get(token) : undefined;
    const now = Date.now();
    if (entry && entry.cachedUntil > now && entry.expiresAt > now) return true;
    const res = await opts.pool.query("SELECT 1 FROM session WHERE id = $1 AND expires_at > now()", [sessionId]);
    return res.rows.length > 0;
  };
  viewer.cacheSize = () => cache.size;
  viewer.sweep = () => {
    const now = Date.now();
    for (const [token, entry] of cache) if (entry.cachedUntil <= now) drop(token);
  };
  return viewer;
}
