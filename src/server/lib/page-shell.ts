import { readFileSync } from "node:fs";
import path from "node:path";
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

export type PageShell = (pathname: string, signedIn: boolean) => string;

/**
 * Reads index.html and the manifest once. Without a manifest (an older build) pages get the plain
 * index.html.
 */
export function createPageShell(webDist: string): PageShell {
  const html = readFileSync(path.join(webDist, "index.html"), "utf8");
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(webDist, ".vite/manifest.json"), "utf8")) as Manifest;
  } catch {
    return () => html;
  }
  const closure = (key: string, into: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) closure(imported, into);
  };
  // The entry and its imports are in index.html already.
  const inEntry = new Set<string>();
  closure("index.html", inEntry);

  const cache = new Map<string, string>();
  const hintsFor = (key: string, page: PageRoute, signedIn: boolean) => {
    let hints = cache.get(key);
    if (hints === undefined) {
      const files = new Set(inEntry);
      for (const module of page.modules(signedIn)) closure(module, files);
      hints = [...files]
        .filter((file) => !inEntry.has(file) && file.endsWith(".js"))
        .map((file) => `<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}">`)
        .join("");
      cache.set(key, hints);
    }
    return hints;
  };

  return (pathname, signedIn) => {
    const at = PAGE_ROUTES.findIndex((page) => page.pattern.test(pathname));
    const links = ['<link rel="preload" as="fetch" crossorigin href="/api/me">'];
    if (at >= 0) {
      const page = PAGE_ROUTES[at];
      links.push(hintsFor(`${at}:${signedIn}`, page, signedIn));
      for (const read of page.reads?.(pathname.match(page.pattern)!) ?? []) {
        links.push(`<link rel="preload" as="fetch" crossorigin href="${escapeHtml(read)}">`);
      }
    }
    return html.replace("</head>", `${links.join("")}</head>`);
  };
}
