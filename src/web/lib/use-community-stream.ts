import { useEffect, useRef } from "react";

export type PostStreamEvent = { type: "post_created" | "post_updated" | "post_deleted"; post_id: string };

const EVENTS = ["post_created", "post_updated", "post_deleted"] as const;

/**
 * Live changes to a community's posts over Server-Sent Events. Frames carry only ids: the caller
 * refetches through the API, which applies every visibility rule. `onResync` means "refetch
 * everything" (events were missed). The browser reconnects by itself with Last-Event-ID; after an
 * HTTP error (the stream closed for good) this retries with a growing, jittered delay.
 */
export function useCommunityStream(
  communityId: string | undefined,
  handlers: { onEvent: (event: PostStreamEvent) => void; onResync: () => void },
) {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    if (!communityId || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let stopped = false;

    const connect = () => {
      source = new EventSource(`/api/realtime/communities/${encodeURIComponent(communityId)}`);
      source.addEventListener("ready", () => {
        // After a gap the feed may be stale: refresh once the stream is back.
        if (attempt > 0) latest.current.onResync();
        attempt = 0;
      });
      for (const name of EVENTS) {
        source.addEventListener(name, (message) => {
          try {
            latest.current.onEvent(JSON.parse((message as MessageEvent<string>).data) as PostStreamEvent);
          } catch {
            latest.current.onResync();
          }
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
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      source?.close();
    };
  }, [communityId]);
}
