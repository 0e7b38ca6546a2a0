import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type HearthApp } from "#server/app";
import { createTestApp, signedInUser, type TestApp } from "#server/test/harness";

// The glue between a page request and the web app's renderer (lib/first-view.ts), with a stand-in
// renderer: it reads the API through the `answer` it is given, as the real one does
// (src/web/entry-server.tsx, whose own behaviour e2e/first-view.spec.ts checks on the real build).
const RENDERER = `
export async function renderFirstView(url, answer) {
  if (url.startsWith("/boom")) throw new Error("the renderer failed");
  if (url.startsWith("/slow")) await new Promise((resolve) => setTimeout(resolve, 5000));
  if (url.startsWith("/none")) return null;
  const me = await answer("/api/me");
  const body = await me.json();
  const other = await answer("/api/communities/no-such-community");
  return {
    html: "<main>" + (body.user ? "signed in as " + body.user.email : "signed out") + " " + other.status + "</main>",
    head: "<title>Drawn · Hearth</title>",
    data: JSON.stringify({ answers: [[["me"], body, 1]], parts: [] }),
    errors: url.startsWith("/partial") ? ["window is not defined"] : [],
  };
}
`;

function fakeBuild() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "hearth-first-view-"));
  const web = path.join(dir, "web");
  mkdirSync(path.join(web, "assets"), { recursive: true });
  mkdirSync(path.join(web, ".vite"));
  mkdirSync(path.join(dir, "ssr"));
  writeFileSync(
    path.join(web, "index.html"),
    '<!doctype html><html><head><title>Hearth</title><script type="module" crossorigin src="/assets/c-entry.js"></script>' +
      '<link rel="stylesheet" crossorigin href="/assets/index.css"></head><body><div id="root">' +
      "<!--first-view:start--><header>Hearth</header><!--first-view:end--></div></body></html>",
  );
  writeFileSync(
    path.join(web, ".vite/manifest.json"),
    JSON.stringify({ "index.html": { file: "assets/c-entry.js", isEntry: true } }),
  );
  writeFileSync(path.join(dir, "ssr/entry-server.js"), RENDERER);
  return { dir, web };
}

describe("first views", () => {
  let t: TestApp;
  let app: HearthApp;
  let build: ReturnType<typeof fakeBuild>;
  beforeAll(async () => {
    t = await createTestApp();
    build = fakeBuild();
    app = await buildApp({
      config: { ...t.config, serveWeb: true },
      database: t.database,
      logger: false,
      startWorker: false,
      webDist: build.web,
    });
  });
  afterAll(async () => {
    await app?.close();
    await t.close();
    rmSync(build.dir, { recursive: true, force: true });
  });

  it("are drawn from the API's answers as the visitor: signed out, then signed in", async () => {
    const visitor = await app.inject({ method: "GET", url: "/post/anything" });
    expect(visitor.statusCode).toBe(200);
    // The API's own refusal reaches the renderer as an answer (404), not as an exception.
    expect(visitor.body).toContain('<div id="root" inert><main>signed out 404</main></div>');
    expect(visitor.body).toContain("<title>Drawn · Hearth</title>");
    expect(visitor.body).not.toContain("<header>Hearth</header>");
    expect(visitor.headers["cache-control"]).toBe("no-cache");

    const user = await signedInUser(t);
    const member = await app.inject({ method: "GET", url: "/post/anything", headers: { cookie: user.cookie } });
    expect(member.body).toContain(`<main>signed in as ${user.email} 404</main>`);
    expect(member.body).toContain('<script type="application/json" id="hearth-first-view">');
    // Theirs alone: no shared cache keeps it.
    expect(member.headers["cache-control"]).toBe("private, no-cache");
    expect(member.headers.vary).toContain("cookie");
  });

  it("fail safe: a renderer that throws, has nothing, or is too slow leaves the page to the browser", async () => {
    for (const url of ["/boom", "/none", "/slow"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain("<header>Hearth</header>");
      expect(res.body, url).not.toContain(" inert");
      // Without a first view the page asks for its reads at once.
      expect(res.body, url).toContain('<link rel="preload" as="fetch" crossorigin href="/api/me">');
    }
    // A part the renderer could not draw is still a first view.
    const partial = await app.inject({ method: "GET", url: "/partial" });
    expect(partial.body).toContain("<main>signed out 404</main>");
  });

  it("are not drawn when FIRST_VIEW is off", async () => {
    const off = await buildApp({
      config: { ...t.config, serveWeb: true, firstView: false },
      database: t.database,
      logger: false,
      startWorker: false,
      webDist: build.web,
    });
    try {
      const res = await off.inject({ method: "GET", url: "/post/anything" });
      expect(res.body).toContain("<header>Hearth</header>");
      expect(res.body).not.toContain("signed out");
    } finally {
      await off.close();
    }
  });
});
