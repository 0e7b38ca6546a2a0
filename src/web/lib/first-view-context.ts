import { createContext, useSyncExternalStore } from "react";

/**
 * What a page's first view was drawn with (src/web/entry-server.tsx), the same on the server and
 * while the browser adopts it: the lazy parts it drew (collected on the server) and when it was drawn.
 */
export type FirstViewContextValue = { parts: Set<string> | null; drawnAt: number | null };

export const FirstViewContext = createContext<FirstViewContextValue>({ parts: null, drawnAt: null });

const never = () => () => {};

/**
 * False while the server draws the page and while the browser adopts it, true after (and for
 * anything the browser draws itself): what depends on the browser's clock or time zone waits for it,
 * so the adopted page matches the server's.
 */
export function useAdopted(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
