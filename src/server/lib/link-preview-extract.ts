import { parsePreviewUrl } from "./ip-guard";

// Link previews, extraction: the title, description and image a page's HTML names, read by a small
// linear scanner (no regex backtracking over the whole body). Fetching is in link-preview.ts.
export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 500;

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  middot: "·",
  bull: "•",
  copy: "©",
  reg: "®",
  trade: "™",
  euro: "€",
  pound: "£",
};

/** HTML character references: numeric ones and the common named ones; unknown names stay. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,9}|[a-zA-Z]{2,8});?/g, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!code || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\uFFFD";
      return String.fromCodePoint(code);
    }
    const named = NAMED[ref.toLowerCase()];
    return named ?? whole;
  });
}

const RAW_TEXT = new Set(["script", "style", "noscript", "template", "textarea", "iframe", "xmp"]);

/** Removes tags (and the contents of script-like elements); linear in the input. */
function stripTags(s: string): string {
  let out = "";
  let i = 0;
  while (i < s.length) {
    const lt = s.indexOf("<", i);
    if (lt < 0) {
      out += s.slice(i);
      break;
    }
    out += s.slice(i, lt);
    if (!/[a-zA-Z/!?]/.test(s[lt + 1] ?? "")) {
      out += "<";
      i = lt + 1;
      continue;
    }
    const gt = s.indexOf(">", lt);
    if (gt < 0) break; // an unterminated tag: drop the rest
    const name = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(s.slice(lt, lt + 32))?.[1]?.toLowerCase();
    i = gt + 1;
    if (name && RAW_TEXT.has(name)) {
      const close = new RegExp(`</${name}\\s*>`, "gi");
      close.lastIndex = i;
      const m = close.exec(s);
      i = m ? m.index + m[0].length : s.length;
    }
  }
  return out;
}

function truncate(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join("")}…`;
}

/**
 * Markup or an attribute value made into plain text: tags stripped, entities decoded, any tag
 * the decoding produced stripped too, control and bidi-override characters removed, whitespace
 * collapsed, length capped.
 */
export function toPlainText(raw: string, max: number): string {
  const text = stripTags(decodeEntities(stripTags(raw.slice(0, max * 20))))
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return truncate(text, max);
}

/** An image URL for the browser to load later: http(s), resolved against the page, never fetched here. */
function imageUrl(value: string | undefined, base: URL): string | null {
  if (!value) return null;
  const v = decodeEntities(value).trim();
  if (!v || v.length > 2048) return null;
  let resolved: string;
  try {
    resolved = new URL(v, base).href;
  } catch {
    return null;
  }
  // Same rules as a page link (no private hosts, no odd ports): viewers' browsers load it.
  return parsePreviewUrl(resolved)?.href ?? null;
}

type Attrs = Record<string, string>;

/** Attributes of a start tag from just after its name; returns them and the index after '>'. */
function readAttributes(html: string, from: number): { attrs: Attrs; end: number } | null {
  const attrs: Attrs = {};
  let i = from;
  const n = html.length;
  const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f";
  for (;;) {
    while (i < n && (isSpace(html[i]) || html[i] === "/")) i++;
    if (i >= n) return null;
    if (html[i] === ">") return { attrs, end: i + 1 };
    const nameStart = i;
    while (i < n && !isSpace(html[i]) && html[i] !== "/" && html[i] !== ">" && (html[i] !== "=" || i === nameStart)) {
      i++;
    }
    const name = html.slice(nameStart, i).toLowerCase();
    while (i < n && isSpace(html[i])) i++;
    let value = "";
    if (html[i] === "=") {
      i++;
      while (i < n && isSpace(html[i])) i++;
      const q = html[i];
      if (q === '"' || q === "'") {
        const close = html.indexOf(q, i + 1);
        if (close < 0) return null;
        value = html.slice(i + 1, close);
        i = close + 1;
      } else {
        const start = i;
        while (i < n && !isSpace(html[i]) && html[i] !== ">") i++;
        value = html.slice(start, i);
      }
    }
    // Raw: each consumer decodes once (toPlainText, imageUrl), so "&amp;lt;" stays "&lt;".
    if (!(name in attrs)) attrs[name] = value;
  }
}

/** Title, description and image from Open Graph, Twitter card, <title> and meta description. */
export function extractPreview(
  html: string,
  pageUrl: URL,
): { title: string; description: string; image: string | null } {
  const meta = new Map<string, string>();
  let title: string | null = null;
  let base = pageUrl;
  const tagName = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)/y;
  let i = 0;
  const n = html.length;
  while (i < n) {
    const lt = html.indexOf("<", i);
    if (lt < 0) break;
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      if (end < 0) break;
      i = end + 3;
      continue;
    }
    tagName.lastIndex = lt;
    const m = tagName.exec(html);
    if (!m) {
      i = lt + 1;
      continue;
    }
    const closing = m[1] === "/";
    const name = m[2].toLowerCase();
    const parsed = readAttributes(html, lt + m[0].length);
    if (!parsed) break;
    i = parsed.end;
    if (closing) {
      if (name === "head") break;
      continue;
    }
    if (name === "meta") {
      const key = (parsed.attrs.property ?? parsed.attrs.name ?? "").trim().toLowerCase();
      if (key && parsed.attrs.content !== undefined && !meta.has(key)) meta.set(key, parsed.attrs.content);
    } else if (name === "base" && parsed.attrs.href && base === pageUrl) {
      try {
        base = new URL(decodeEntities(parsed.attrs.href), pageUrl);
      } catch {
        // keep the page URL
      }
    } else if (name === "title" || RAW_TEXT.has(name)) {
      const close = new RegExp(`</${name}\\s*>`, "gi");
      close.lastIndex = i;
      const c = close.exec(html);
      const end = c ? c.index : n;
      if (name === "title" && title === null) title = html.slice(i, Math.min(end, i + 20_000));
      i = c ? c.index + c[0].length : n;
    }
  }
  const first = (...keys: string[]) => keys.map((k) => meta.get(k)?.trim()).find((v) => v);
  return {
    title: toPlainText(first("og:title", "twitter:title") ?? title ?? "", TITLE_MAX),
    description: toPlainText(first("og:description", "twitter:description", "description") ?? "", DESCRIPTION_MAX),
    image:
      [meta.get("og:image"), meta.get("og:image:url"), meta.get("og:image:secure_url"), meta.get("twitter:image")]
        .concat(meta.get("twitter:image:src"))
        .map((v) => imageUrl(v, base))
        .find((v) => v !== null) ?? null,
  };
}
