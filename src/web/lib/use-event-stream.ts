import { useEffect, useRef } from "react";
import { useAdopted } from "./first-view-context";

/** How long a tab in the background keeps its stream. */
const HIDDEN_GRACE_MS = 60_000;

export type StreamHandlers = {
  /** A named event and its parsed data. */
  onEvent: (name: string, data: unknown) => void;
  /** Events may have been missed: refetch everything the stream stands for. */
  onResync: () => void;
};

/**
 * One Server-Sent Events stream of the API's (`/api/realtime/...`). Frames carry only ids: the
 * caller refetches through the API, which applies every visibility rule. The browser reconnects
 * by itself with Last-Event-ID; after an HTTP error (the stream closed for good) this retries with
 * a growing, jittered delay, and asks for a resync once the stream is back (and once it is first
 * ready on a page the server drew). No URL, no stream.
 */
export function useEventStream(url: string | null, events: readonly string[], handlers: StreamHandlers) {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  const names = events.join(",");
  // A page drawn on the server shows what was true when it was drawn, before this stream opened:
  // what happened in between is asked for once the stream is ready.
  const adopted = useAdopted();
  const drawnBefore = useRef(!adopted);

  useEffect(() => {
    if (!url || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let stopped = false;

    const connect = () => {
      source = new EventSource(url);
      source.addEventListener("ready", () => {
        // After a gap what is on screen may be stale: refresh once the stream is back.
        if (attempt > 0 || drawnBefore.current) latest.current.onResync();
        drawnBefore.current = false;
        attempt = 0;
      });
      for (const name of names.split(",")) {
        source.addEventListener(name, (message) => {
          let data: unknown;
          try {
            data = JSON.parse((message as MessageEvent<string>).data);
          } catch {
            latest.current.onResync();
            return;
          }
          latest.current.onEvent(name, data);
        });
      }
      source.addEventListener("resync", () => latest.current.onResync());
      source.onerror = () => {
        if (stopped || !source || source.readyState !== EventSource.CLOSED) return;
        source.close();
        attempt += 1;
        if (attempt > 8) return;
        const delay = Math.min(60_000, 2_000 * 2 ** (attempt - 1)) * (0.5 + Math.random());
        retry = setTimeout(connect, delay);
      };
    };
    connect();

    // A tab in the background lets its stream go after a while: over HTTP/1.1 a browser opens at
    // most six connections to a site across all its tabs, and open streams would use them up.
    // Back in front, the tab reconnects and refetches what it shows.
    let parked: ReturnType<typeof setTimeout> | undefined;
    const onVisibility = () => {
      if (document.visibilityState === "hidden") {
        parked ??= setTimeout(() => {
          if (retry) clearTimeout(retry);
          source?.close();
          source = null;
        }, HIDDEN_GRACE_MS);
        return;
      }
      if (parked) clearTimeout(parked);
      parked = undefined;
      if (!stopped && (!source || source.readyState === EventSource.CLOSED)) {
        // Also a stream that had given up retrying gets another chance.
        if (retry) clearTimeout(retry);
        attempt = 0;
        connect();
        latest.current.onResync();
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stopped = true;
      document.removeEventListener("visibilitychange", onVisibility);
      if (parked) clearTimeout(parked);
      if (retry) clearTimeout(retry);
      source?.close();
    };
  }, [url, names]);
}
