import * as TabsPrimitive from "@radix-ui/react-tabs";
import { Bell, BellRing, CheckCheck } from "lucide-react";
import { useMemo } from "react";
import { useSearchParams } from "react-router";
import { EmptyState } from "#web/components/empty-state";
import { SignInPrompt } from "#web/components/sign-in-prompt";
import { Button } from "#web/components/ui/button";
import { useSignInOnArrival } from "#web/lib/use-sign-in-on-arrival";
import { useNotificationPages } from "../api/get-notifications";
import type { NotificationFilter } from "../api/notification-keys";
import { MarkAllReadButton } from "./mark-all-read-button";
import { NotificationItem, NotificationListSkeleton, NotificationsLoadError } from "./notification-item";
import { BrowseCommunitiesLink } from "#web/components/browse-communities-link";

const SIGN_IN = { mode: "login", redirect: "/notifications", message: "Sign in to see your notifications." } as const;

const CARD = "overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-stone-200";

const FILTERS: Array<{ value: NotificationFilter; label: string }> = [
  { value: "all", label: "All" },
  { value: "unread", label: "Unread" },
];

/** /notifications — every notification of the signed-in user, All or Unread, newest first, 20 at a time. */
export function NotificationsPage() {
  const { me, signedIn, signedOut } = useSignInOnArrival(SIGN_IN);
  const [searchParams, setSearchParams] = useSearchParams();
  const filter: NotificationFilter = searchParams.get("filter") === "unread" ? "unread" : "all";

  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <title>Notifications · Hearth</title>
      <div className="flex flex-wrap items-center gap-3">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
          <Bell className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Notifications</h1>
          <p className="text-sm text-stone-600">Likes, replies and new members in your communities.</p>
        </div>
        {signedIn && <MarkAllReadButton size="md" />}
      </div>

      <div className="mt-6 sm:mt-8">
        {me.isPending ? (
          <NotificationListSkeleton className={CARD} />
        ) : signedOut ? (
          <SignInPrompt request={SIGN_IN} title="Sign in to see your notifications">
            Likes on your posts, replies and new members of your communities are gathered here.
          </SignInPrompt>
        ) : (
          <TabsPrimitive.Root
            value={filter}
            onValueChange={(value) => setSearchParams(value === "unread" ? { filter: value } : {}, { replace: true })}
          >
            <TabsPrimitive.List
              aria-label="Show notifications"
              className="inline-flex gap-1 rounded-xl bg-stone-200/70 p-1"
            >
              {FILTERS.map(({ value, label }) => (
                <TabsPrimitive.Trigger
                  key={value}
                  value={value}
                  className="cursor-pointer rounded-lg px-4 py-1.5 text-sm font-semibold text-stone-700 transition-colors hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 data-[state=active]:bg-white data-[state=active]:text-stone-900 data-[state=active]:shadow-sm"
                >
                  {label}
                </TabsPrimitive.Trigger>
              ))}
            </TabsPrimitive.List>
            {/* Only the chosen list is mounted: each loads when first shown. */}
            <TabsPrimitive.Content value={filter} className="mt-4 focus-visible:outline-none">
              <NotificationList key={filter} filter={filter} />
            </TabsPrimitive.Content>
          </TabsPrimitive.Root>
        )}
      </div>
    </main>
  );
}

function NotificationList({ filter }: { filter: NotificationFilter }) {
  const list = useNotificationPages(filter, true);
  const items = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);

  if (list.isPending) return <NotificationListSkeleton className={CARD} />;
  if (list.isError) return <NotificationsLoadError onRetry={() => void list.refetch()} />;
  if (items.length === 0) {
    return filter === "unread" ? (
      <EmptyState icon={CheckCheck} title="You're all caught up">
        No unread notifications. New ones show up here, and on the bell at the top of every page.
      </EmptyState>
    ) : (
      <EmptyState icon={BellRing} title="No notifications yet" action={<BrowseCommunitiesLink variant="secondary" />}>
        When someone likes or replies to your posts, or joins a community you run, you&apos;ll hear about it here.
      </EmptyState>
    );
  }
  return (
    <>
      <ul
        aria-label={filter === "unread" ? "Unread notifications" : "All notifications"}
        className={`divide-y divide-stone-100 ${CARD}`}
      >
        {items.map((n) => (
          <li key={n.id}>
            <NotificationItem notification={n} />
          </li>
        ))}
      </ul>
      {list.hasNextPage && (
        <div className="flex justify-center pt-6">
          <Button variant="secondary" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
            Load more
          </Button>
        </div>
      )}
    </>
  );
}
