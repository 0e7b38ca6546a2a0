import { MESSAGE_EVENT_TYPES } from "#shared/messaging";
import { useEventStream } from "./use-event-stream";

const EVENTS = ["notification", "read", "memberships", ...MESSAGE_EVENT_TYPES] as const;

export type NotificationStreamEvent = (typeof EVENTS)[number] | "resync";

/**
 * The signed-in viewer's own stream (mount it once per tab, while signed in): new notifications,
 * notifications marked read in another tab, and `memberships` when their list of communities
 * changed (joined, left, removed, a role changed, a community deleted), and the message events
 * (`message_new`, `message_updated`, `message_read`) of the viewer's conversations. Frames carry no content:
 * the caller refetches what the event stands for; `resync` (after a gap) means everything.
 */
export function useNotificationStream(onChange: (event: NotificationStreamEvent) => void) {
  useEventStream("/api/realtime/notifications", EVENTS, {
    onEvent: (name) => onChange(name as NotificationStreamEvent),
    onResync: () => onChange("resync"),
  });
}
