import { NotificationsPage, UnsubscribePage } from "#web/features/notifications";

/** /notifications — the signed-in user's notifications (linked from the bell's 'View all notifications'). */
export function NotificationsRoute() {
  return <NotificationsPage />;
}

/** /notifications/unsubscribe?token= — the digest email's unsubscribe link. */
export function UnsubscribeRoute() {
  return <UnsubscribePage />;
}
