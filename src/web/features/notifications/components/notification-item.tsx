import {
  Bell,
  CalendarClock,
  CalendarPlus,
  CalendarX,
  CircleCheck,
  Heart,
  type LucideIcon,
  MessageCircle,
  RotateCw,
  TrendingUp,
  UserCheck,
  UserPlus,
  UserX,
} from "lucide-react";
import { Link } from "react-router";
import { TimeAgo } from "#web/components/ui/time-ago";
import type { NotificationType } from "#shared/notifications";
import { Avatar } from "#web/components/ui/avatar";
import { cn } from "#web/lib/cn";
import type { Notification } from "../api/notification-keys";
import { useMarkNotificationRead } from "../api/mark-read";
import { LoadingRegion, PictureLinesSkeleton } from "#web/components/ui/load-states";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";

/** A small mark on the picture saying what happened. */
const KIND: Record<NotificationType, { icon: LucideIcon; className: string }> = {
  post_like: { icon: Heart, className: "bg-rose-600 [&_svg]:fill-white" },
  post_reply: { icon: MessageCircle, className: "bg-sky-700" },
  community_join: { icon: UserPlus, className: "bg-emerald-700" },
  post_approved: { icon: CircleCheck, className: "bg-emerald-700" },
  other: { icon: Bell, className: "bg-stone-700" },
  event_new: { icon: CalendarPlus, className: "bg-violet-700" },
  event_changed: { icon: CalendarClock, className: "bg-violet-700" },
  event_cancelled: { icon: CalendarX, className: "bg-stone-700" },
  event_reminder: { icon: CalendarClock, className: "bg-amber-700" },
  level_up: { icon: TrendingUp, className: "bg-amber-600" },
  join_request: { icon: UserPlus, className: "bg-sky-700" },
  join_approved: { icon: UserCheck, className: "bg-emerald-700" },
  join_declined: { icon: UserX, className: "bg-stone-700" },
  // Reports (issue 22) reuse this list's icons: a new lucide import here regroups the icon chunks the
  // feed's first load shares (docs/decisions/0009-web-bundle-budget.md).
  report_new: { icon: Bell, className: "bg-red-700" },
  report_outcome: { icon: CircleCheck, className: "bg-sky-700" },
  content_hidden: { icon: UserX, className: "bg-amber-700" },
  content_removed: { icon: UserX, className: "bg-red-700" },
  user_warned: { icon: Bell, className: "bg-amber-700" },
};

/**
 * One notification, in the bell's dropdown and on /notifications: who (or which community), what,
 * where and when. Unread ones carry a dot and a warmer background. Opening it marks it read and
 * goes to its post (`href`); `onOpen` lets the dropdown close.
 */
export function NotificationItem({
  notification: n,
  onOpen,
  compact = false,
}: {
  notification: Notification;
  onOpen?: () => void;
  /** The dropdown shows one line of the body, the page two. */
  compact?: boolean;
}) {
  const markRead = useMarkNotificationRead();
  const kind = KIND[n.type];
  const actorName = n.actor ? n.actor.full_name || n.actor.username : null;

  return (
    <Link
      to={n.href}
      onClick={() => {
        if (!n.is_read) markRead.mutate(n);
        onOpen?.();
      }}
      className={cn(
        "flex gap-3 px-4 py-3 transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700",
        n.is_read ? "bg-white hover:bg-stone-50" : "bg-brand-50 hover:bg-brand-100/70",
      )}
    >
      <span className="relative mt-0.5 flex shrink-0 self-start">
        <Avatar
          src={n.actor ? n.actor.avatar_url : n.community?.icon_url}
          name={actorName ?? n.community?.name ?? "Hearth"}
          size="md"
        />
        <span
          aria-hidden="true"
          className={cn(
            "absolute -right-1 -bottom-1 flex size-5 items-center justify-center rounded-full text-white ring-2 ring-white",
            kind.className,
          )}
        >
          <kind.icon className="size-3" />
        </span>
      </span>
      <span className="min-w-0 flex-1">
        {!n.is_read && <span className="sr-only">Unread: </span>}
        <span
          className={cn("line-clamp-2 text-sm break-words text-stone-900", n.is_read ? "font-medium" : "font-semibold")}
        >
          {n.title}
        </span>
        {n.body && (
          <span className={cn("mt-0.5 text-sm break-words text-stone-600", compact ? "line-clamp-1" : "line-clamp-2")}>
            {n.body}
          </span>
        )}
        <span className="mt-1 flex min-w-0 items-center gap-1 text-xs text-stone-600">
          {n.community && (
            <>
              <span className="truncate font-medium">{n.community.name}</span>
              <span aria-hidden="true">·</span>
            </>
          )}
          <TimeAgo date={n.created_at} className="shrink-0" />
        </span>
      </span>
      {!n.is_read && <span aria-hidden="true" className="mt-2 size-2.5 shrink-0 rounded-full bg-brand-600" />}
    </Link>
  );
}

/** Grey stand-ins while notifications load. */
export function NotificationListSkeleton({ className }: { className?: string }) {
  return (
    <LoadingRegion label="Loading notifications" className={className}>
      <NotificationItemSkeleton />
      <NotificationItemSkeleton />
      <NotificationItemSkeleton />
    </LoadingRegion>
  );
}

export function NotificationsLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <FormMessage tone="error">
      <p>Failed to load your notifications.</p>
      <Button variant="secondary" size="sm" className="mt-2" onClick={onRetry}>
        <RotateCw className="size-4" aria-hidden="true" />
        Try again
      </Button>
    </FormMessage>
  );
}

function NotificationItemSkeleton() {
  return (
    <PictureLinesSkeleton
      className="flex gap-3 px-4 py-3"
      picture="size-10 shrink-0 rounded-full bg-stone-200"
      text="flex-1 space-y-2 pt-1"
      lines={["h-3.5 w-3/4 rounded bg-stone-200", "h-3 w-1/2 rounded bg-stone-100"]}
    />
  );
}
