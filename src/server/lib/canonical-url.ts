/**
 * The one spelling of a request's path that every decision is made on. It runs before routing
 * (Fastify's rewriteUrl), so the router, the CSRF guard, rate limits, authorization and Better
 * Auth all see the same path:
 *
 * - percent-encoded unreserved characters are decoded (`/%61pi` is `/api`), other escapes are
 *   written in upper case;
 * - dot segments are resolved as a browser resolves them, encoded ones too (`/api/./x`,
 *   `/api/%2e/x`, `/api/y/../x` are all `/api/x`); backslashes count as slashes;
 * - runs of slashes become one (`/api//x` is `/api/x`). A trailing slash stays: the router ignores
 *   it, and some pages (the API reference) redirect to it.
 *
 * The query string is left as it is. A path already canonical (nearly every request) is returned
 * unchanged after one scan.
 */
export function canonicalUrl(raw: string): string {
  if (raw.charCodeAt(0) !== 47) return raw; // "*" or an absolute-form target: the router refuses those
  let end = raw.length;
  for (let i = 1; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 63 || c === 35) {
      end = i; // "?" or "#"
      break;
    }
  }
  const path = raw.slice(0, end);
  if (!NEEDS_WORK.test(path)) return raw;

  const decoded = path.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => {
    const code = parseInt(hex, 16);
    return isUnreserved(code) ? String.fromCharCode(code) : `%${hex.toUpperCase()}`;
  });
  // WHATWG URL parsing resolves ".", "..", "%2e" and "%2e%2e" segments and reads "\" as "/".
  // The fixed origin keeps a path that starts with "//" a path, not a host.
  return new URL(`http://h${decoded}`).pathname.replace(/\/{2,}/g, "/") + raw.slice(end);
}

/** Anything a canonical path cannot hold: an escape, a backslash, "//", a dot segment. */
const NEEDS_WORK = /%|\\|\/\/|\/\.\.?(?:\/|$)/;

/** RFC 3986 unreserved: ALPHA, DIGIT, "-", ".", "_", "~". */
function isUnreserved(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x7e
  );
}
