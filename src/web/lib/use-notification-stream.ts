import { useEventStream } from "./use-event-stream";

const EVENTS = ["notification", "read"] as const;

/**
 * The signed-in viewer's new notifications, and notifications marked read in another tab, live (mount it once per tab, while signed in). Frames carry only an id, so every event (and a
 * resync after a gap) means the same to the caller: refetch the list and the unread count.
 */
export function useNotificationStream(onChange: () => void) {
  useEventStream("/api/realtime/notifications", EVENTS, { onEvent: onChange, onResync: onChange });
}
