import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app";
import { createTestApp, type TestApp } from "#server/test/harness";
import { createPageShell, PAGE_ROUTES } from "./page-shell";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** A built web app in miniature: index.html with its entry, and a manifest with two levels of imports. */
function fakeDist() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "hearth-shell-"));
  mkdirSync(path.join(dir, "assets"));
  mkdirSync(path.join(dir, ".vite"));
  writeFileSync(
    path.join(dir, "index.html"),
    '<!doctype html><html><head><title>Hearth</title><script type="module" crossorigin src="/assets/c-entry.js"></script>' +
      '<link rel="modulepreload" crossorigin href="/assets/c-react.js"><link rel="stylesheet" crossorigin href="/assets/index.css">' +
      '</head><body><div id="root"><!--first-view:start--><header>Hearth</header><!--first-view:end--></div></body></html>',
  );
  const chunk = (file: string, imports: string[] = []) => ({ file: `assets/${file}`, imports });
  const manifest = {
    "index.html": { ...chunk("c-entry.js", ["_c-react.js"]), isEntry: true, css: ["assets/index.css"] },
    "_c-react.js": chunk("c-react.js"),
    "_c-shared.js": chunk("c-shared.js", ["_c-react.js"]),
    "_c-icons.js": chunk("c-icons.js"),
    "app/routes/home.tsx": chunk("c-home.js", ["_c-shared.js"]),
    "app/routes/community.tsx": chunk("c-community.js", ["_c-shared.js", "index.html"]),
    "features/community/components/community-landing.tsx": chunk("c-landing.js", ["_c-icons.js"]),
    "features/community/components/community-home.tsx": chunk("c-member-home.js", ["_c-shared.js"]),
    "app/routes/post.tsx": chunk("c-post.js"),
  };
  writeFileSync(path.join(dir, ".vite/manifest.json"), JSON.stringify(manifest));
  for (const { file } of Object.values(manifest)) writeFileSync(path.join(dir, file), "export {};");
  return dir;
}

/** The app's start (public/start.js): its entry, and the modules it fetches at once after the first paint. */
const start = (html: string) => {
  const tag = /<script defer src="\/start.js" data-entry="([^"]+)" data-preload="([^"]*)"><\/script>/.exec(html);
  return tag ? { entry: tag[1], preload: tag[2].split(" ").filter(Boolean) } : null;
};
/** What the page fetches beyond the entry and the entry's own imports (the same on every page). */
const preloads = (html: string) => start(html)!.preload.filter((file) => file !== "/assets/c-react.js");
/** The fetch hints' URLs, as the browser reads the attribute (&amp; is &). */
const fetches = (html: string) =>
  [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map((m) =>
    m[1].replaceAll("&amp;", "&"),
  );

describe("page shell", () => {
  let dir: string;
  beforeAll(() => {
    dir = fakeDist();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("hints a page's own chunks and the API reads it starts with, not what the entry already loads", () => {
    const shell = createPageShell(dir);
    const visitor = shell("/community/creator-lab", false);
    expect(preloads(visitor).sort()).toEqual([
      "/assets/c-community.js",
      "/assets/c-icons.js",
      "/assets/c-landing.js",
      "/assets/c-shared.js",
    ]);
    expect(fetches(visitor)).toEqual(["/api/me", "/api/communities/creator-lab"]);
    // A signed-in visitor is likely a member: the member's home instead of the landing page.
    const member = shell("/community/creator-lab", true);
    expect(preloads(member).sort()).toEqual([
      "/assets/c-community.js",
      "/assets/c-member-home.js",
      "/assets/c-shared.js",
    ]);
    // The start sits in <head>, after the stylesheet; it replaces the entry's module script, and Vite's
    // own hints: nothing of the app is fetched before the first paint.
    expect(member.indexOf("c-member-home.js")).toBeLessThan(member.indexOf("</head>"));
    expect(start(member)).toEqual({
      entry: "/assets/c-entry.js",
      preload: ["/assets/c-react.js", "/assets/c-community.js", "/assets/c-shared.js", "/assets/c-member-home.js"],
    });
    expect(member).not.toContain('<script type="module"');
    expect(member).not.toContain("modulepreload");
    expect(member.indexOf('rel="stylesheet"')).toBeLessThan(member.indexOf("start.js"));

    expect(fetches(shell("/", false))).toEqual(["/api/me", "/api/communities?limit=12"]);
    expect(fetches(shell("/category/technology", false))).toEqual([
      "/api/me",
      "/api/communities?category=technology&limit=12",
    ]);
    const id = "0b0e5f7e-1111-4a2b-9c3d-123456789abc";
    expect(fetches(shell(`/post/${id}`, false))).toEqual(["/api/me", `/api/posts/${id}`, `/api/posts/${id}/comments`]);
    // The client reads the id as the address spells it.
    const upper = id.toUpperCase();
    expect(fetches(shell(`/post/${upper}`, false))).toEqual([
      "/api/me",
      `/api/posts/${upper}`,
      `/api/posts/${upper}/comments`,
    ]);
    expect(preloads(shell(`/post/${id}`, false))).toEqual(["/assets/c-post.js"]);
  });

  it("hints no read for a path the client would spell differently, and escapes nothing into markup", () => {
    const shell = createPageShell(dir);
    for (const odd of ["/community/%3Cscript%3E", '/community/a"b', "/post/not-a-uuid", "/category/Tech%20Stuff"]) {
      const html = shell(odd, false);
      expect(fetches(html)).toEqual(["/api/me"]);
      expect(html).not.toContain("<script>");
      expect(html).not.toContain('a"b');
    }
    // An unknown page (the app's own 404) gets only the session read.
    expect(preloads(shell("/no/such/page", false))).toEqual([]);
  });

  it("puts a first view in the root, inert until the app adopts it, with its answers and its title", () => {
    const shell = createPageShell(dir);
    const id = "0b0e5f7e-1111-4a2b-9c3d-123456789abc";
    // A "$&" or "$'" in a post's text is text, not a replacement pattern.
    const data = JSON.stringify([[["post", id], { content: "costs $& and $' \\u003c/script>" }, 1]]);
    const html = shell(`/post/${id}`, false, {
      html: '<main id="main"><p>The post &amp; $&amp; its text</p></main>',
      head: '<title>The post · Hearth</title><link rel="preload" as="image" href="/media/a.webp" fetchPriority="high"/>',
      data,
      errors: [],
    });
    expect(html).toContain('<div id="root" inert><main id="main"><p>The post &amp; $&amp; its text</p></main></div>');
    expect(html).not.toContain("<header>Hearth</header>");
    expect(html).not.toContain("first-view:");
    const json = /<script type="application\/json" id="hearth-first-view">(.*)<\/script><\/body>/.exec(html);
    expect(json?.[1]).toBe(data);
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toContain("<title>The post · Hearth</title><title>Hearth</title>");
    expect(head).toContain('<link rel="preload" as="image" href="/media/a.webp" fetchPriority="high"/>');
    // It carries its answers: no read is hinted, the app is still started.
    expect(fetches(html)).toEqual([]);
    expect(start(html)?.preload).toContain("/assets/c-post.js");
    // Without one, the painted header stays and the reads are hinted.
    const plain = shell(`/post/${id}`, false, null);
    expect(plain).toContain("<header>Hearth</header>");
    expect(plain).not.toContain(" inert");
    expect(fetches(plain)).toEqual(["/api/me", `/api/posts/${id}`, `/api/posts/${id}/comments`]);
  });

  it("falls back to the plain index.html when the build has no manifest", () => {
    const bare = mkdtempSync(path.join(os.tmpdir(), "hearth-shell-bare-"));
    writeFileSync(path.join(bare, "index.html"), "<!doctype html><html><head></head><body></body></html>");
    try {
      expect(createPageShell(bare)("/community/x", false)).toBe(readFileSync(path.join(bare, "index.html"), "utf8"));
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it("knows every page of the web app's router, with the same route module", () => {
    const router = readFileSync(path.join(root, "src/web/app/router.tsx"), "utf8");
    const pages = [
      ...router.matchAll(/(?:path: "([^"]+)"|index: true),\s*lazy: \(\) =>\s*page\(import\("\.\/routes\/([\w-]+)"\)/g),
    ];
    expect(pages.length).toBeGreaterThan(10);
    for (const [, routePath, module] of pages) {
      if (routePath === "*") continue;
      // An optional parameter (":id?") is sampled present.
      const sample = `/${(routePath ?? "").replace(/:\w+\??/g, "x1")}`;
      const match = PAGE_ROUTES.find((p) => p.pattern.test(sample));
      expect(match, `no PAGE_ROUTES entry for ${sample}`).toBeDefined();
      expect(match!.modules(false)[0], sample).toBe(`app/routes/${module}.tsx`);
    }
    for (const page of PAGE_ROUTES) {
      for (const module of [...page.modules(false), ...page.modules(true)]) {
        expect(existsSync(path.join(root, "src/web", module)), module).toBe(true);
      }
    }
  });
});

describe("pages served with hints", () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp();
    dir = fakeDist();
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends each page its hints, varies on the cookie, and never serves the manifest", async () => {
    const app = await buildApp({
      config: { ...t.config, serveWeb: true },
      database: t.database,
      logger: false,
      startWorker: false,
      webDist: dir,
    });
    try {
      const visitor = await app.inject({ method: "GET", url: "/community/creator-lab?tab=members" });
      expect(visitor.statusCode).toBe(200);
      expect(visitor.headers["content-type"]).toContain("text/html");
      expect(visitor.headers.vary).toContain("cookie");
      expect(visitor.headers["cache-control"]).toBe("no-cache");
      expect(preloads(visitor.body)).toContain("/assets/c-landing.js");
      const member = await app.inject({
        method: "GET",
        url: "/community/creator-lab",
        cookies: { "hearth.session_token": "anything" },
      });
      expect(preloads(member.body)).toContain("/assets/c-member-home.js");
      expect(preloads(member.body)).not.toContain("/assets/c-landing.js");

      // Compressed for browsers that ask, like the API's answers.
      const br = await app.inject({
        method: "GET",
        url: "/community/creator-lab",
        headers: { "accept-encoding": "gzip, br" },
      });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(visitor.body);

      const manifest = await app.inject({ method: "GET", url: "/.vite/manifest.json" });
      expect(manifest.body).not.toContain("app/routes/");
      expect(manifest.headers["content-type"]).not.toContain("json");
    } finally {
      await app.close();
    }
  });
});
