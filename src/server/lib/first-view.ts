import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { FirstView, RenderFirstView } from "#shared/first-view";

/**
 * A page's first view, drawn on the server by the web app's own components (dist/ssr, built from
 * src/web/entry-server.tsx with the browser's app), from the API's own answers: each read the page
 * makes goes through the whole app (`inject`) with the visitor's cookie and address, so the same
 * checks, limits and caches decide what it shows. The HTML then carries what the visitor would
 * see, and nothing else (docs/decisions/0027-first-view-on-the-server.md).
 */
export type FirstViewRenderer = (request: FastifyRequest) => Promise<FirstView | null>;

/** Past this, the page goes without its first view (the browser draws it, as it would anyway). */
export const FIRST_VIEW_TIMEOUT_MS = 1500;

/**
 * First views being drawn at once, per process, past which a page goes without one: under a spike
 * of page loads the server answers each at once (the browsers draw them) instead of queueing renders
 * behind renders, each of which would then miss its time anyway.
 */
export const FIRST_VIEWS_AT_ONCE = 8;

/** The request headers an API read made for a page carries over from the page's request. */
const CARRIED = ["cookie", "host", "user-agent", "accept-language"] as const;

/** The renderer of the built app, or null when there is no build of it (the page is drawn in the browser). */
export async function loadFirstViewRenderer(app: FastifyInstance, ssrDist: string): Promise<FirstViewRenderer | null> {
  const file = path.join(ssrDist, "entry-server.js");
  if (!existsSync(file)) return null;
  const { renderFirstView: render } = (await import(pathToFileURL(file).href)) as { renderFirstView: RenderFirstView };

  let drawing = 0;
  return (request) => {
    if (drawing >= FIRST_VIEWS_AT_ONCE) return Promise.resolve(null);
    const headers: Record<string, string> = {};
    for (const name of CARRIED) {
      const value = request.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const answer = async (pathAndQuery: string) => {
      const res = await app.inject({ method: "GET", url: pathAndQuery, headers, remoteAddress: request.ip });
      const empty = res.statusCode === 204 || res.statusCode === 304;
      return new Response(empty ? null : res.payload, {
        status: res.statusCode,
        headers: { "content-type": String(res.headers["content-type"] ?? "application/json") },
      });
    };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), FIRST_VIEW_TIMEOUT_MS);
    });
    drawing++;
    const drawn = render(request.url, answer)
      .finally(() => drawing--)
      .then(
        (view) => {
          if (view?.errors.length)
            request.log.warn({ errors: view.errors }, "parts of the first view left to the browser");
          return view;
        },
        (err: unknown) => {
          request.log.warn({ err }, "first view not drawn");
          return null;
        },
      );
    return Promise.race([drawn, late]).finally(() => clearTimeout(timer));
  };
}
