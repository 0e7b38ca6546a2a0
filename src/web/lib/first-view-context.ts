import { createContext, useSyncExternalStore } from "react";

/**
 * What a page's first view was drawn with (src/web/entry-server.tsx), the same on the server and
 * while the browser adopts it: the lazy parts it drew (collected on the server) and when it was drawn.
 */
export type FirstViewContextValue = { parts: Set<string> | null; drawnAt: number | null };

export const FirstViewContext = createContext<FirstViewContextValue>({ parts: null, drawnAt: null });

const never = () => () => {};

/**
 * `read()` in the browser, `serverValue` while the server draws the page and while the browser
 * adopts it: what depends on the browser's clock, time zone, address or origin waits for it, so the
 * adopted page matches the server's. A component whose value differs is drawn again right after
 * the adoption, in one go: keep such values low in the tree, or equal on both sides where they can be
 * (an address without a fragment reads "" on both).
 */
export function useBrowserValue<T>(read: () => T, serverValue: T): T {
  return useSyncExternalStore(never, read, () => serverValue);
}

const yes = () => true;

/** False while the server draws the page and while the browser adopts it, true after (see useBrowserValue). */
export function useAdopted(): boolean {
  return useBrowserValue(yes, false);
}
