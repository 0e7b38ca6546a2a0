import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { AppError } from "./errors";

export type RateRule = { limit: number; windowSeconds: number };

export const RATE_RULES = {
  signInPerIp: { limit: 60, windowSeconds: 600 },
  signInPerAccount: { limit: 20, windowSeconds: 900 },
  signUpPerIp: { limit: 20, windowSeconds: 3600 },
  resetPerIp: { limit: 20, windowSeconds: 900 },
  resetPerAccount: { limit: 5, windowSeconds: 900 },
  verifyPerIp: { limit: 30, windowSeconds: 900 },
  twoFactorPerIp: { limit: 30, windowSeconds: 900 },
  usernameCheckPerIp: { limit: 120, windowSeconds: 60 },
  inviteLookupPerIp: { limit: 300, windowSeconds: 600 },
  inviteAcceptPerUser: { limit: 30, windowSeconds: 3600 },
  communityCreatePerUser: { limit: 10, windowSeconds: 3600 },
  uploadsPerUser: { limit: 300, windowSeconds: 3600 },
  postCreatePerUser: { limit: 60, windowSeconds: 600 },
  /** Posts whose link gets a preview; past it a post is still made, without one. */
  linkPreviewPerUser: { limit: 30, windowSeconds: 600 },
  /** Visitors' share calls (each counts once per address, post and day besides). */
  shareAnonymousPerIp: { limit: 30, windowSeconds: 600 },
  /** Checkouts started (each makes a provider session). */
  checkoutPerUser: { limit: 30, windowSeconds: 600 },
  /** Fetches of one private calendar feed (calendar apps poll it about hourly; a leaked URL cannot hammer it). */
  calendarFeedPerToken: { limit: 60, windowSeconds: 600 },
} satisfies Record<string, RateRule>;

export type RateLimiter = { hit: (key: string, rule: RateRule) => Promise<void> };

/** Fixed-window counters in PostgreSQL, so every app process enforces the same limit. */
export function createRateLimiter(db: Db, enabled: boolean): RateLimiter {
  let calls = 0;
  return {
    async hit(key, rule) {
      if (!enabled) return;
      const res = await db.execute<{ count: number; window_start: Date }>(sql`
        INSERT INTO rate_limits (key, window_start, count)
        VALUES (${key}, to_timestamp(floor(extract(epoch FROM now()) / ${rule.windowSeconds}) * ${rule.windowSeconds}), 1)
        ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
        RETURNING count, window_start`);
      if (++calls % 500 === 0) {
        await db.execute(sql`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`);
      }
      const { count, window_start } = res.rows[0];
      if (count > rule.limit) {
        const retryAfter = Math.max(
          1,
          Math.ceil((new Date(window_start).getTime() + rule.windowSeconds * 1000 - Date.now()) / 1000),
        );
        throw new AppError("RATE_LIMITED", "Too many attempts. Please wait a moment and try again.", { retryAfter });
      }
    },
  };
}
