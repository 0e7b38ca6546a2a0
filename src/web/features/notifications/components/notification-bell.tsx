import { useQueryClient } from "@tanstack/react-query";
import { Bell } from "lucide-react";
import { lazy, Suspense, useId, useState } from "react";
import { Link } from "react-router";
import { badgeCount } from "#shared/format";
import { Popover, PopoverContent, PopoverTrigger } from "#web/components/ui/popover";
import { type NotificationStreamEvent, useNotificationStream } from "#web/lib/use-notification-stream";
import { applyLevelUps } from "#web/features/levels";
import { latestNotificationsQueryOptions } from "../api/get-notifications";
import { useUnreadCount } from "../api/get-unread-count";
import { invalidateNotifications, notificationQueryKeys } from "../api/notification-keys";
import { Spinner } from "#web/components/ui/spinner";
import { MarkAllReadButton } from "./mark-all-read-button";

// The dropdown's list (each kind's mark and its icon) loads when the bell is first pointed at,
// focused or opened: every signed-in page shows the bell, few open it.
const loadList = () => import("./latest-notifications");
const LatestNotifications = lazy(() => loadList().then((m) => ({ default: m.LatestNotifications })));

/** The accessible name of the bell: the count is part of it, the badge is only seen. */
function bellLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : "Notifications";
}

/**
 * The header's bell (signed in only): the unread badge (9+ above 9) and a dropdown of the ten
 * newest. It also holds the tab's one notification stream, so the badge and lists stay live;
 * `onStreamEvent` hears every event too (the header's community switcher refreshes on them).
 */
export function NotificationBell({ onStreamEvent }: { onStreamEvent?: (event: NotificationStreamEvent) => void }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const count = useUnreadCount();
  const unread = count.data?.unread_count ?? 0;
  const headingId = useId();
  useNotificationStream((event) => {
    if (event === "notification" || event === "read" || event === "resync") void invalidateNotifications(queryClient);
    // A level-up changes the viewer's level, badges and unlocks in its community: read them again.
    // A read already under way began before this event: it is cancelled, so the list read here
    // includes what the event announced.
    if (event === "notification" || event === "resync") {
      void queryClient
        .cancelQueries({ queryKey: notificationQueryKeys.latest() })
        .then(() => queryClient.fetchQuery({ ...latestNotificationsQueryOptions(), staleTime: 0 }))
        .then(
          (page) => applyLevelUps(queryClient, page.items),
          () => undefined,
        );
    }
    onStreamEvent?.(event);
  });

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        aria-label={bellLabel(unread)}
        onPointerEnter={() => void loadList()}
        onFocus={() => void loadList()}
        className="relative flex size-10 cursor-pointer items-center justify-center rounded-full text-stone-700 transition-colors hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 data-[state=open]:bg-stone-100"
      >
        <Bell className="size-5" aria-hidden="true" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            className="absolute top-0.5 right-0.5 flex h-[1.125rem] min-w-[1.125rem] items-center justify-center rounded-full bg-red-600 px-1 text-[0.6875rem] leading-none font-bold text-white ring-2 ring-white"
          >
            {badgeCount(unread)}
          </span>
        )}
      </PopoverTrigger>
      <PopoverContent aria-labelledby={headingId} className="flex w-[min(24rem,calc(100vw-1.5rem))] flex-col">
        <div className="flex items-center justify-between gap-2 border-b border-stone-200 py-2 pr-2 pl-4">
          <h2 id={headingId} className="text-base font-semibold text-stone-900">
            Notifications
          </h2>
          <MarkAllReadButton />
        </div>
        <Suspense fallback={<Spinner label="Loading notifications" className="flex justify-center py-10" />}>
          <LatestNotifications onOpen={() => setOpen(false)} />
        </Suspense>
        <div className="border-t border-stone-200 p-1.5">
          <Link
            to="/notifications"
            onClick={() => setOpen(false)}
            className="block rounded-lg px-3 py-2 text-center text-sm font-semibold text-brand-800 transition-colors hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-700"
          >
            View all notifications
          </Link>
        </div>
      </PopoverContent>
    </Popover>
  );
}
