/**
 * A page's first view, rendered on the server: the same React tree the browser draws, with the same
 * API reads, answered in-process as the visitor. The HTML then carries the page (a post's text, a
 * community's description) before any JavaScript arrives, and the answers go with it, so the
 * browser adopts that HTML (hydration) instead of asking again and drawing it a second time.
 *
 * Built by `vite build` into dist/ssr/entry-server.js (vite.config.ts); used by
 * src/server/lib/first-view.ts. Anything that fails here leaves the page to the browser, as before.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { type Query, skipToken } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import {
  type AnswerApi,
  type FirstView,
  type FirstViewData,
  FIRST_VIEW_ORIGIN,
  type RenderFirstView,
} from "#shared/first-view";
import { App } from "./app/app";
import { routes } from "./app/router";
import { sendApiRequestsWith } from "./lib/api";
import { FirstViewContext } from "./lib/first-view-context";
import { createQueryClient } from "./lib/query-client";

/**
 * Reads a page's components ask for, round after round: the first render shows which queries the
 * page starts with, their answers show what the next render asks for (a post's comments once the
 * post is known). A page whose reads go deeper keeps its loading state there: the browser asks.
 */
const MAX_READ_ROUNDS = 3;

const answering = new AsyncLocalStorage<AnswerApi>();
sendApiRequestsWith((request) => {
  const answer = answering.getStore();
  if (!answer) return Promise.reject(new Error("An API read outside a first view's render"));
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== FIRST_VIEW_ORIGIN || !url.pathname.startsWith("/api/")) {
    return Promise.reject(new Error(`A first view only reads the API: ${request.method} ${url.pathname}`));
  }
  return answer(url.pathname + url.search);
});

const handler = createStaticHandler(routes);

async function renderToHtml(tree: ReactNode, errors: string[]): Promise<string> {
  // Everything, lazily loaded parts included, and no streaming scripts: a crawler and a slow phone
  // get the whole page, and the page's policy runs no inline script.
  const { prelude } = await prerenderToNodeStream(tree, {
    // Every part inline: React would move a large one to the end, shown by an inline script.
    progressiveChunkSize: Number.MAX_SAFE_INTEGER,
    // A part that fails is drawn by the browser instead (React marks it so); the server logs why.
    onError: (error) => {
      errors.push(error instanceof Error ? error.message : String(error));
    },
  });
  let html = "";
  for await (const chunk of prelude) html += (chunk as Buffer).toString("utf8");
  return html;
}

const isEnabled = (query: Query) => {
  const { enabled, queryFn } = query.options as { enabled?: boolean | ((q: Query) => boolean); queryFn?: unknown };
  if (queryFn === skipToken || !queryFn) return false;
  return typeof enabled === "function" ? enabled(query) : enabled !== false;
};

/** Escapes what could end the JSON's `<script>` element or start markup inside it. */
const scriptSafe = (json: string) =>
  json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** What React puts before the page: its title, meta and the preloads it asks for (a cover image). */
const HEAD_FIRST = /^(?:<title>[^<]*<\/title>|<(?:link|meta)\b[^>]*>)+/;

/** The first view of `url` (a path and query), or null when the router has none (a redirect). */
export const renderFirstView: RenderFirstView = (url, answer) =>
  answering.run(answer, async (): Promise<FirstView | null> => {
    const context = await handler.query(new Request(new URL(url, FIRST_VIEW_ORIGIN)));
    if (context instanceof Response) return null;
    const router = createStaticRouter(handler.dataRoutes, context);
    const queryClient = createQueryClient({ server: true });
    const parts = new Set<string>();
    const drawnAt = Date.now();
    const tree = (
      <FirstViewContext value={{ parts, drawnAt }}>
        <App queryClient={queryClient}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </App>
      </FirstViewContext>
    );

    const asked = new Set<string>();
    const errors: string[] = [];
    let html = await renderToHtml(tree, errors);
    for (let round = 0; round < MAX_READ_ROUNDS; round++) {
      const due = queryClient
        .getQueryCache()
        .getAll()
        .filter((q) => q.state.status === "pending" && !asked.has(q.queryHash) && isEnabled(q));
      if (due.length === 0) break;
      for (const q of due) asked.add(q.queryHash);
      await Promise.all(due.map((q) => q.fetch().catch(() => undefined)));
      errors.length = 0;
      html = await renderToHtml(tree, errors);
    }
    const drawn: FirstViewData = {
      answers: queryClient
        .getQueryCache()
        .getAll()
        .filter((q) => q.state.status === "success")
        .map((q) => [q.queryKey, q.state.data, q.state.dataUpdatedAt]),
      parts: [...parts],
      drawnAt,
    };
    const data = scriptSafe(JSON.stringify(drawn));
    queryClient.clear();

    // React puts the page's title and the preloads it asks for first; they belong in the head.
    const head = HEAD_FIRST.exec(html)?.[0] ?? "";
    return { html: html.slice(head.length), head, data, errors };
  });
