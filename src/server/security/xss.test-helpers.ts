// The payloads and the markup checker shared by xss.test.ts (the API and the HTML the server
// writes) and xss-markup.test.ts (the checker itself and the web components).

export const X = {
  script: `<script>alert(1)</script>`,
  img: `<img src=x onerror=alert(1)>`,
  svg: `"><svg onload=alert(1)>`,
  markdown: `[click me](javascript:alert(1))`,
  js: `javascript:alert(1)`,
};
export const ALL = Object.values(X).join(" ");
export const POST_TEXT = `${ALL}\n<a href="javascript:alert(1)">link</a> ![x](javascript:alert(1)) <iframe src="javascript:alert(1)"></iframe>\nhttps://example.com/"onmouseover="alert(1)`;

/** Tags that run or load script, or change where a page's links and forms go (named as such in reports). */
const DANGEROUS_TAGS = new Set([
  "script",
  "iframe",
  "object",
  "embed",
  "base",
  "form",
  "meta",
  "link",
  "frame",
  "frameset",
  "applet",
  "style",
  "svg",
  "img",
  "math",
  "template",
]);

/**
 * What in a piece of HTML could run script: dangerous or unexpected tags, event-handler
 * attributes, and URLs with a script scheme. `allowed` lists the only tags the producer writes.
 */
export function markupProblems(html: string, allowed: string[], opts: { hrefPrefixes?: string[] } = {}): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<\/?([a-zA-Z][\w:-]*)([^>]*)>/g)) {
    const tag = m[1].toLowerCase();
    if (!allowed.includes(tag)) out.push(`${DANGEROUS_TAGS.has(tag) ? "dangerous" : "unexpected"} tag <${tag}>`);
    for (const a of m[2].matchAll(/([^\s=/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g)) {
      const name = a[1].toLowerCase();
      const value = (a[2] ?? "")
        .replace(/^["']|["']$/g, "")
        .replace(/&#x?[0-9a-f]+;?|&[a-z]+;/gi, "")
        .trim();
      if (name.startsWith("on")) out.push(`<${tag} ${name}=>`);
      if (["href", "src", "action", "formaction", "xlink:href", "srcdoc"].includes(name)) {
        if (/^\s*(javascript|data|vbscript):/i.test(value)) out.push(`<${tag} ${name}="${value}">`);
        if (opts.hrefPrefixes && !opts.hrefPrefixes.some((p) => value.startsWith(p)))
          out.push(`<${tag} ${name}="${value}">`);
      }
    }
  }
  for (const raw of [X.script, X.img, "<svg onload", "<iframe"]) if (html.includes(raw)) out.push(`raw ${raw}`);
  return out;
}
