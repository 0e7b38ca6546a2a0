import { type ComponentType, createElement, lazy, useContext } from "react";
import { FirstViewContext } from "./first-view-context";

// As React.lazy's own signature: a component of any props.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyComponent = ComponentType<any>;
type LazyInternals = { _init: (payload: unknown) => unknown; _payload: unknown };

/** Every lazily loaded part of the app whose module has run, by id. */
const parts = new Map<string, LazyInternals[]>();

/**
 * `React.lazy`, with an id: a part the server drew in a page's first view is loaded before the
 * browser adopts the page (`loadDrawnParts`), so React adopts it with the rest instead of leaving
 * it for later, when a click on it would be lost.
 */
export function lazyPart<T extends AnyComponent>(id: string, load: () => Promise<{ default: T }>): T {
  const Lazy = lazy(load);
  parts.set(id, [...(parts.get(id) ?? []), Lazy as unknown as LazyInternals]);
  const Part = (props: object) => {
    // The server's first view collects the parts it draws (entry-server.tsx).
    useContext(FirstViewContext).parts?.add(id);
    return createElement(Lazy as AnyComponent, props);
  };
  return Part as T;
}

/** Starts a lazy part's load, as React would on its first render, and waits for it. */
function preload(part: LazyInternals): Promise<unknown> {
  try {
    part._init(part._payload);
    return Promise.resolve();
  } catch (pending) {
    return Promise.resolve(pending).catch(() => undefined);
  }
}

/**
 * Loads the parts the server drew, and those their modules hold that it drew too (a community's
 * home, then its sidebar), until none is left.
 */
export async function loadDrawnParts(ids: readonly string[]): Promise<void> {
  const loaded = new Set<LazyInternals>();
  for (;;) {
    const due = ids.flatMap((id) => parts.get(id) ?? []).filter((part) => !loaded.has(part));
    if (due.length === 0) return;
    for (const part of due) loaded.add(part);
    await Promise.all(due.map(preload));
  }
}
