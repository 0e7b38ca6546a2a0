import { createHmac, timingSafeEqual } from "node:crypto";
import { fromNodeHeaders } from "better-auth/node";
import type { FastifyRequest } from "fastify";
import type pg from "pg";
import type { Viewer } from "../context";
import type { Auth } from "./auth";

/** Better Auth's session settings, shared with lib/auth.ts. */
export const SESSION_EXPIRES_IN_S = 30 * 24 * 3600;
export const SESSION_UPDATE_AGE_S = 24 * 3600;

const VIEWER_BY_TOKEN = `
  SELECT s.id AS session_id, s.expires_at, s.updated_at, u.id, u.email, u.name, u.email_verified
  FROM session s JOIN "user" u ON u.id = s.user_id
  WHERE s.token = $1`;

type Row = {
  session_id: string;
  expires_at: Date;
  updated_at: Date;
  id: string;
  email: string;
  name: string;
  email_verified: boolean;
};

/**
 * The signed-in user of a request, looked up once per request.
 * Fast path: verify the cookie's HMAC and read session and user in one prepared query. A session due
 * for its sliding refresh goes through Better Auth, which extends it; so does anything unusual.
 */
export function createViewerLookup(opts: { auth: Auth; pool: pg.Pool; secret: string; secureCookies: boolean }) {
  const cookieName = `${opts.secureCookies ? "__Secure-" : ""}hearth.session_token`;

  const viaBetterAuth = async (request: FastifyRequest): Promise<Viewer | null> => {
    const s = await opts.auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
    return s
      ? {
          id: s.user.id,
          email: s.user.email,
          name: s.user.name,
          emailVerified: s.user.emailVerified,
          sessionId: s.session.id,
        }
      : null;
  };

  const lookup = async (request: FastifyRequest): Promise<Viewer | null> => {
    const value = request.cookies?.[cookieName];
    if (!value) return null;
    const dot = value.lastIndexOf(".");
    if (dot <= 0) return null;
    const token = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1), "base64");
    const expected = createHmac("sha256", opts.secret).update(token).digest();
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const res = await opts.pool.query<Row>({ name: "viewer-by-token", text: VIEWER_BY_TOKEN, values: [token] });
    const row = res.rows[0];
    if (!row) return null;
    const now = Date.now();
    if (row.expires_at.getTime() <= now) return null;
    if (now - row.updated_at.getTime() > SESSION_UPDATE_AGE_S * 1000) return viaBetterAuth(request);
    return {
      id: row.id,
      email: row.email,
      name: row.name,
      emailVerified: row.email_verified,
      sessionId: row.session_id,
    };
  };

  return (request: FastifyRequest): Promise<Viewer | null> => {
    request.viewerPromise ??= lookup(request);
    return request.viewerPromise;
  };
}
