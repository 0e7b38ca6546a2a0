import { BellRing } from "lucide-react";
import { useLatestNotifications } from "../api/get-notifications";
import { NotificationItem, NotificationListSkeleton, NotificationsLoadError } from "./notification-item";

/** The bell's dropdown list: the ten newest notifications (loaded with the dropdown, see notification-bell.tsx). */
export function LatestNotifications({ onOpen }: { onOpen: () => void }) {
  const latest = useLatestNotifications();

  if (latest.isPending) return <NotificationListSkeleton />;
  if (latest.isError) {
    return (
      <div className="p-3">
        <NotificationsLoadError onRetry={() => void latest.refetch()} />
      </div>
    );
  }
  if (latest.data.items.length === 0) {
    return (
      <div className="px-6 py-10 text-center">
        <span className="mx-auto flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
          <BellRing className="size-6" aria-hidden="true" />
        </span>
        <p className="mt-3 font-semibold text-stone-900">You&apos;re all caught up</p>
        <p className="mt-1 text-sm text-stone-600">Likes, replies and new members show up here.</p>
      </div>
    );
  }
  return (
    <ul className="max-h-[min(30rem,calc(100vh-12rem))] divide-y divide-stone-100 overflow-y-auto overscroll-contain">
      {latest.data.items.map((n) => (
        <li key={n.id}>
          <NotificationItem notification={n} onOpen={onOpen} compact />
        </li>
      ))}
    </ul>
  );
}
