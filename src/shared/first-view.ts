/**
 * A page's first view, rendered by the server (src/web/entry-server.tsx, src/server/lib/first-view.ts)
 * and adopted by the browser (src/web/main.tsx).
 */

/** The element carrying the answers the first view was rendered from: JSON, never run as a script. */
export const FIRST_VIEW_DATA_ID = "hearth-first-view";

/**
 * The origin the server's renderer gives the API's addresses. It names no network address: the
 * renderer answers them in-process (reserved `.invalid`, so nothing can ever resolve it).
 */
export const FIRST_VIEW_ORIGIN = "http://first-view.invalid";

/** One answer the first view was drawn from: the query's key, its data, and when it was read (ms). */
export type FirstViewAnswer = [queryKey: readonly unknown[], data: unknown, readAt: number];

/** What the page carries for the browser to adopt its first view. */
export type FirstViewData = {
  answers: FirstViewAnswer[];
  /** The lazily loaded parts it drew (src/web/lib/lazy-part.ts): loaded before the page is adopted. */
  parts: string[];
  /** When it was drawn (ms): what the page says of times ("3h ago") is said as of then until adopted. */
  drawnAt: number;
};

/** A page's first view, as the renderer hands it to the server. */
export type FirstView = {
  /** The app's markup, for inside `<div id="root">`. */
  html: string;
  /** What the page puts in the document's head (its `<title>`, preloads), or "". */
  head: string;
  /** What it was drawn from (FirstViewData), as JSON safe inside a script element. */
  data: string;
  /** Why parts of it were left to the browser (a component that needs one), if any were. */
  errors: string[];
};

/** Answers one API read (a path and query under /api) as the visitor who asked for the page. */
export type AnswerApi = (pathAndQuery: string) => Promise<Response>;

/** The renderer's one export (dist/ssr/entry-server.js): the first view of a path and query, or null. */
export type RenderFirstView = (url: string, answer: AnswerApi) => Promise<FirstView | null>;
