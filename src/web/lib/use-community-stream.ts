import { useEventStream } from "./use-event-stream";

export type PostStreamEvent = { type: "post_created" | "post_updated" | "post_deleted"; post_id: string };

const EVENTS = ["post_created", "post_updated", "post_deleted"] as const;

/**
 * Live changes to a community's posts. `onEvent` names the post that changed; `onResync` means
 * "refetch the feed" (events were missed).
 */
export function useCommunityStream(
  communityId: string | undefined,
  handlers: { onEvent: (event: PostStreamEvent) => void; onResync: () => void },
) {
  useEventStream(communityId ? `/api/realtime/communities/${encodeURIComponent(communityId)}` : null, EVENTS, {
    onEvent: (_name, data) => handlers.onEvent(data as PostStreamEvent),
    onResync: handlers.onResync,
  });
}
