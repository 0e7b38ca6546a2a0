import { createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type pg from "pg";

/** The secret a Hearth data directory signs its session cookies with (written at first start). */
export const authSecretOf = (dataDir: string) => readFileSync(path.join(dataDir, "auth-secret"), "utf8").trim();

/**
 * The cookie Better Auth sets for a session token: `<token>.<base64 HMAC-SHA256(secret, token)>`,
 * URI-encoded, as `hearth.session_token=…` (the name on a plain-http public URL).
 */
export function sessionCookie(secret: string, token: string): string {
  const signature = createHmac("sha256", secret).update(token).digest("base64");
  return `hearth.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}

/**
 * One new session for each of `userIds` (existing users), inserted with SQL as Better Auth makes
 * them, and a cookie for each signed with `secret` (the server's AUTH_SECRET, e.g. `authSecretOf`
 * its data directory), in the same order. Signing in through the API would cost an
 * argon2id verify per user; this costs one statement.
 */
export async function insertSessions(db: pg.Pool, secret: string, userIds: string[]): Promise<string[]> {
  const tokens = userIds.map(() => randomBytes(24).toString("base64url"));
  await db.query(
    `INSERT INTO session (id, token, user_id, expires_at, created_at, updated_at, ip_address, user_agent)
     SELECT md5(t.token), t.token, t.user_id, now() + interval '30 days', now(), now(), '127.0.0.1', 'hearth-bench'
       FROM unnest($1::text[], $2::text[]) AS t(token, user_id)`,
    [tokens, userIds],
  );
  return tokens.map((token) => sessionCookie(secret, token));
}
