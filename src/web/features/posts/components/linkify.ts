/** A piece of post text: plain text, or an http(s) link to render as <a>. */
export type TextPart = { kind: "text"; text: string } | { kind: "link"; text: string; href: string };

const URL_PATTERN = /https?:\/\/[^\s<>"'`]+/gi;

/**
 * Splits text into plain parts and http(s) links. Everything else stays text: the caller renders
 * the parts as React text and anchors, never as HTML. Trailing punctuation is left out of a link
 * ("see https://example.com." links to https://example.com), and a closing parenthesis only when
 * the link has no opening one.
 */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    let candidate = match[0];
    for (;;) {
      const trimmed = candidate.replace(/[.,;:!?'"\]]+$/, "");
      const unbalanced = trimmed.endsWith(")") && count(trimmed, "(") < count(trimmed, ")");
      const next = unbalanced ? trimmed.slice(0, -1) : trimmed;
      if (next === candidate) break;
      candidate = next;
    }
    const href = safeHref(candidate);
    if (!href) continue;
    if (start > last) parts.push({ kind: "text", text: text.slice(last, start) });
    parts.push({ kind: "link", text: candidate, href });
    last = start + candidate.length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}

const count = (s: string, ch: string) => s.split(ch).length - 1;

/** The URL when it parses as http or https with a host, else null. */
export function safeHref(raw: string): string | null {
  try {
    const url = new URL(raw);
    if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) return null;
    return url.href;
  } catch {
    return null;
  }
}

/** The host people recognise: "www." dropped. */
export function displayHost(raw: string): string {
  try {
    return new URL(raw).hostname.replace(/^www\./, "");
  } catch {
    return raw;
  }
}
