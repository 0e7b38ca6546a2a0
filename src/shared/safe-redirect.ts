/**
 * Only same-origin relative paths are followed after sign-in; anything else goes to "/".
 * Rejects protocol-relative (//x), backslash tricks (/\x), schemes (https:x, javascript:),
 * encoded forms (%2F%2Fx, /%5Cx) and control characters.
 */
export function safeRedirectPath(target: unknown): string {
  if (typeof target !== "string" || target.length === 0 || target.length > 2048) return "/";
  let decoded = target;
  for (let i = 0; i < 3; i++) {
    try {
      const next = decodeURIComponent(decoded);
      if (next === decoded) break;
      decoded = next;
    } catch {
      return "/";
    }
  }
  for (const candidate of [target, decoded]) {
    // eslint-disable-next-line no-control-regex
    const control = /[\u0000-\u001f\u007f]/.test(candidate);
    if (!candidate.startsWith("/") || candidate.startsWith("//") || candidate.includes("\\") || control) return "/";
  }
  try {
    const base = "http://hearth.invalid";
    const url = new URL(target, base);
    if (url.origin !== base) return "/";
    const path = url.pathname + url.search + url.hash;
    // Dot segments can fold into a second leading slash (/.//x, /..//x become //x): another site.
    return path.startsWith("//") ? "/" : path;
  } catch {
    return "/";
  }
}
