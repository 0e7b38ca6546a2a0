import { readFileSync } from "node:fs";
import path from "node:path";
import { FIRST_VIEW_DATA_ID, type FirstView } from "#shared/first-view";
import { escapeHtml } from "./html";

/**
 * The single-page app's index.html, with hints for the page asked for: `<link rel="modulepreload">`
 * for the page's own JavaScript (its route chunk and that chunk's imports, from Vite's manifest)
 * and `<link rel="preload" as="fetch">` for the API reads the page starts with. Without them the
 * browser finds the page's code only after the entry has run, and its data only after that code
 * has run: two or three round trips in a row before anything of the page shows.
 *
 * Nothing private goes into the HTML: the hints are URLs the page would request anyway, and the
 * browser makes those requests with the visitor's own cookies, through the API's own checks.
 */

/** A page of the web app (src/web/app/router.tsx): its path, and what it loads on arrival. */
type PageRoute = {
  pattern: RegExp;
  /** Route modules, as keys of Vite's manifest (relative to src/web). */
  modules: (signedIn: boolean) => string[];
  /** API reads the page makes first, exactly as the web app's client spells them. */
  reads?: (match: RegExpMatchArray) => string[];
};

const route = (file: string) => `app/routes/${file}.tsx`;
const SLUG = /^[a-z0-9-]{1,100}$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Cards per directory page: DIRECTORY_PAGE_SIZE in src/web/features/communities/api/list-directory.ts. */
const DIRECTORY_PAGE_SIZE = 12;
const CATEGORY = /^[a-z]{1,40}$/;

/** Kept in step with src/web/app/router.tsx by page-shell.test.ts. */
export const PAGE_ROUTES: readonly PageRoute[] = [
  { pattern: /^\/$/, modules: () => [route("home")], reads: () => [`/api/communities?limit=${DIRECTORY_PAGE_SIZE}`] },
  {
    pattern: /^\/category\/([^/]+)$/,
    modules: () => [route("home")],
    reads: (m) => (CATEGORY.test(m[1]) ? [`/api/communities?category=${m[1]}&limit=${DIRECTORY_PAGE_SIZE}`] : []),
  },
  { pattern: /^\/create$/, modules: () => [route("home")] },
  {
    pattern: /^\/community\/([^/]+)$/,
    // A member's home or a visitor's landing: which one is likely follows from the session cookie.
    modules: (signedIn) => [
      route("community"),
      `features/community/components/${signedIn ? "community-home" : "community-landing"}.tsx`,
    ],
    reads: (m) => (SLUG.test(m[1]) ? [`/api/communities/${m[1]}`] : []),
  },
  { pattern: /^\/community\/[^/]+\/setup$/, modules: () => [route("community-setup")] },
  { pattern: /^\/community\/[^/]+\/course\/[^/]+$/, modules: () => [route("course")] },
  { pattern: /^\/signup$/, modules: () => [route("signup")] },
  { pattern: /^\/signup\/(pricing|payment)$/, modules: () => [route("signup-plans")] },
  { pattern: /^\/free-trial$/, modules: () => [route("free-trial")] },
  { pattern: /^\/invite\/[^/]+$/, modules: () => [route("invite")] },
  { pattern: /^\/reset-password$/, modules: () => [route("reset-password")] },
  {
    pattern: /^\/post\/([^/]+)$/,
    modules: () => [route("post")],
    // The post and its comments, with the id as the address spells it (so does the client).
    reads: (m) => (UUID.test(m[1]) ? [`/api/posts/${m[1]}`, `/api/posts/${m[1]}/comments`] : []),
  },
  { pattern: /^\/saved$/, modules: () => [route("saved")] },
  { pattern: /^\/billing(\/.*)?$/, modules: () => [route("billing")] },
  { pattern: /^\/notifications(\/unsubscribe)?$/, modules: () => [route("notifications")] },
  { pattern: /^\/messages(\/[^/]+)?$/, modules: () => [route("messages")] },
  { pattern: /^\/search$/, modules: () => [route("search")] },
  { pattern: /^\/u\/[^/]+$/, modules: () => [route("user-profile")] },
];

type ManifestChunk = { file: string; imports?: string[]; isEntry?: boolean };
type Manifest = Record<string, ManifestChunk>;

export type PageShell = (pathname: string, signedIn: boolean, view?: FirstView | null) => string;

const VIEW_START = "<!--first-view:start-->";
const VIEW_END = "<!--first-view:end-->";
const ROOT = '<div id="root">';
const TITLE = /<title>[^<]*<\/title>/;

/**
 * The page with its first view (lib/first-view.ts) in place of the painted header: the app's markup
 * inside the root, which stays inert (nothing clickable, nothing focusable) until the browser's app
 * has adopted it and can answer a click; the answers it was drawn from, as JSON the app reads (never
 * run: a JSON script element); the page's title, and the preloads it asks for, in the head.
 */
function withFirstView(html: string, view: FirstView): string {
  const start = html.indexOf(VIEW_START);
  const end = html.indexOf(VIEW_END);
  const root = html.indexOf(ROOT);
  if (start < 0 || end < start || root < 0 || root > start) return html;
  // The page's title goes before the shell's own, which stays: the browser shows the first, and the
  // app may take the page's away (a page without one, after a navigation) but never the shell's.
  const title = TITLE.exec(view.head)?.[0];
  let head = html.slice(0, root);
  if (title) head = head.replace(TITLE, (own) => title + own);
  head = head.replace("</head>", () => `${view.head.replace(TITLE, "")}</head>`);
  return (
    head +
    // Nothing but the app's markup in the root, not even white space: React adopts it node by node.
    '<div id="root" inert>' +
    view.html +
    html
      .slice(end + VIEW_END.length)
      .trimStart()
      .replace(
        "</body>",
        () => `<script type="application/json" id="${FIRST_VIEW_DATA_ID}">${view.data}</script></body>`,
      )
  );
}

const START = "<!--app-start-->";

/**
 * index.html with the stylesheet first and, in place of the entry's `<script type="module">` and
 * Vite's hints, a mark for public/start.js: the page paints (its first view, or the painted header)
 * before any of the app's JavaScript is fetched. A module and its hints fetched beside the
 * stylesheet share a slow link with it, and the module runs before the first paint when they arrive
 * together; start.js imports them after the first frame, each running as soon as it has arrived.
 */
function paintFirst(html: string): { html: string; entry: string } | null {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
  if (!entry) return null;
  const sheets = html.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
  let rest = html.replace(/\s*<link rel="modulepreload"[^>]*>/g, "");
  for (const sheet of sheets) rest = rest.replace(sheet, "");
  return { html: rest.replace(entry[0], () => sheets.join("") + START), entry: entry[1] };
}

/**
 * Reads index.html and the manifest once. Without a manifest (an older build) pages get the plain
 * index.html.
 */
export function createPageShell(webDist: string): PageShell {
  const index = readFileSync(path.join(webDist, "index.html"), "utf8");
  const painted = paintFirst(index);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(webDist, ".vite/manifest.json"), "utf8")) as Manifest;
  } catch {
    return () => index;
  }
  if (!painted) return () => index;
  const { html, entry } = painted;
  const closure = (key: string, into: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) closure(imported, into);
  };
  const inEntry = new Set<string>();
  closure("index.html", inEntry);

  // The app's start for each page: its entry, and every module it and the page's route load first.
  const cache = new Map<string, string>();
  const startFor = (key: string, page: PageRoute | undefined, signedIn: boolean) => {
    let tag = cache.get(key);
    if (tag === undefined) {
      const files = new Set(inEntry);
      for (const module of page?.modules(signedIn) ?? []) closure(module, files);
      const preload = [...files].map((file) => `/${file}`).filter((file) => file !== entry && file.endsWith(".js"));
      tag = `<script defer src="/start.js" data-entry="${escapeHtml(entry)}" data-preload="${escapeHtml(preload.join(" "))}"></script>`;
      cache.set(key, tag);
    }
    return tag;
  };

  return (pathname, signedIn, view) => {
    const at = PAGE_ROUTES.findIndex((page) => page.pattern.test(pathname));
    const page = at >= 0 ? PAGE_ROUTES[at] : undefined;
    // A first view carries its answers: the browser reads none of them again. Without one, the page
    // asks for them at once, while the app loads.
    const reads = view ? [] : ["/api/me", ...(page?.reads?.(pathname.match(page.pattern)!) ?? [])];
    const links = reads.map((read) => `<link rel="preload" as="fetch" crossorigin href="${escapeHtml(read)}">`);
    const shell = html.replace(START, () => links.join("") + startFor(`${at}:${signedIn}`, page, signedIn));
    return view ? withFirstView(shell, view) : shell;
  };
}
