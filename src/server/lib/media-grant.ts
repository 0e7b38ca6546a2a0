import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * A signed, expiring permission to read one stored file, for the few places that show a private
 * community's pictures to someone who is not a member yet (the invite page). Disk's counterpart
 * of a signed S3 URL: `/media/{key}?g={expires}.{signature}`.
 */
const sign = (secret: string, key: string, expires: number) =>
  createHmac("sha256", secret).update(`media-grant:${key}:${expires}`).digest("base64url");

export function grantUrl(secret: string, url: string | null, ttlSeconds = 3600): string | null {
  if (!url || !url.startsWith("/media/")) return url;
  const key = url.slice("/media/".length);
  // Rounded to the hour so the same page keeps one URL (and the browser's cache) for a while.
  const expires = Math.ceil((Date.now() / 1000 + ttlSeconds) / 3600) * 3600;
  return `${url}?g=${expires}.${sign(secret, key, expires)}`;
}

export function grantAllows(secret: string, key: string, grant: string | undefined): boolean {
  if (!grant) return false;
  const m = /^(\d{1,12})\.([\w-]{43})$/.exec(grant);
  if (!m) return false;
  const expires = Number(m[1]);
  if (expires * 1000 < Date.now()) return false;
  const expected = Buffer.from(sign(secret, key, expires));
  const given = Buffer.from(m[2]);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
