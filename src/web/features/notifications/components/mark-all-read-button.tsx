import { CheckCheck } from "lucide-react";
import { toast } from "#web/lib/toast";
import { Button } from "#web/components/ui/button";
import { errorMessage } from "#web/lib/api";
import { useMarkAllNotificationsRead } from "../api/mark-all-read";
import { useUnreadCount } from "../api/get-unread-count";

/** 'Mark all as read', in the dropdown and on /notifications; off while nothing is unread. */
export function MarkAllReadButton({ size = "sm" }: { size?: "sm" | "md" }) {
  const count = useUnreadCount();
  const markAll = useMarkAllNotificationsRead();
  const unread = count.data?.unread_count ?? 0;
  return (
    <Button
      variant="ghost"
      size={size}
      className="text-brand-800 hover:bg-brand-50 hover:text-brand-900"
      disabled={unread === 0 || markAll.isPending}
      onClick={() =>
        markAll.mutate(undefined, {
          onError: (error) => toast.error(errorMessage(error, "Could not mark your notifications as read.")),
        })
      }
    >
      <CheckCheck className="size-4" aria-hidden="true" />
      Mark all as read
    </Button>
  );
}
