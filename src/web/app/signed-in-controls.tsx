import { useQueryClient } from "@tanstack/react-query";
import { Bookmark, CreditCard, LogOut, Pencil, UserRound } from "lucide-react";
import { useNavigate } from "react-router";
import { MESSAGE_EVENT_TYPES } from "#shared/messaging";
import { Avatar } from "#web/components/ui/avatar";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu";
import { useSignOut } from "#web/features/auth";
import { communityQueryKeys, invalidateMyCommunities } from "#web/features/communities";
import { invalidateMessages, MessagesButton } from "#web/features/messages";
import { NotificationBell } from "#web/features/notifications";
import { openEditProfile } from "#web/lib/edit-profile-events";
import { type Me, useRefreshSession } from "#web/lib/session";
import { toast } from "#web/lib/toast";

/** The header's controls for someone signed in: the chat button, the notification bell and the user menu. */
export function SignedInControls({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  // The tab's one stream also keeps "your communities" fresh: any notification event may change a
  // community's unread mark; a membership change (here, in another tab, or by an admin) also
  // refetches the community pages on screen, so a page left elsewhere shows the landing.
  const onStreamEvent = (event: string) => {
    // A message sent, edited, deleted or read (here or in another tab): the badge, the inbox and
    // the open conversation are read again.
    if (event === "resync" || (MESSAGE_EVENT_TYPES as readonly string[]).includes(event)) {
      void invalidateMessages(queryClient);
      if (event !== "resync") return;
    }
    void invalidateMyCommunities(queryClient);
    if (event === "memberships" || event === "resync")
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.details() });
  };
  return (
    <>
      <MessagesButton />
      <NotificationBell onStreamEvent={onStreamEvent} />
      <UserMenu me={me} />
    </>
  );
}

function UserMenu({ me }: { me: Me }) {
  const navigate = useNavigate();
  const signOut = useSignOut();
  const refreshSession = useRefreshSession();
  const user = me.user!;
  const profile = me.profile;
  const name = profile?.full_name || user.name;

  const onSignOut = () =>
    signOut.mutate(undefined, {
      onSuccess: async () => {
        await refreshSession();
        toast.success("You've been signed out.");
      },
      onError: (error) => toast.error(error.message),
    });

  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger
        className="flex cursor-pointer items-center rounded-full ring-offset-2 transition-shadow hover:ring-2 hover:ring-brand-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        aria-label="Open user menu"
      >
        <Avatar src={profile?.avatar_url} name={name} size="md" />
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>
          <span className="block text-xs font-medium text-stone-600">Signed in as</span>
          <span className="block truncate text-sm font-semibold text-stone-900">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {profile && (
          <DropdownMenuItem onSelect={() => navigate(`/u/${encodeURIComponent(profile.username)}`)}>
            <UserRound aria-hidden="true" />
            View profile
          </DropdownMenuItem>
        )}
        <DropdownMenuItem onSelect={() => openEditProfile()}>
          <Pencil aria-hidden="true" />
          Edit profile
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate("/saved")}>
          <Bookmark aria-hidden="true" />
          Saved posts
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate("/billing")}>
          <CreditCard aria-hidden="true" />
          Billing
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onSignOut}>
          <LogOut aria-hidden="true" />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
