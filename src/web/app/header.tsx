import { Bookmark, LogOut, Pencil, Plus, UserRound } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";
import { Logo } from "../components/layout/logo";
import { Avatar } from "../components/ui/avatar";
import { Button } from "../components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../components/ui/dropdown-menu";
import { useSignOut } from "../features/auth";
import { NotificationBell } from "../features/notifications";
import { openAuthDialog } from "../lib/auth-dialog-events";
import { openEditProfile } from "../lib/edit-profile-events";
import { type Me, useMe, useRefreshSession } from "../lib/session";

/** Signed out: the login dialog first, then /create (SPEC §2). */
export function useCreateCommunity() {
  const me = useMe();
  const navigate = useNavigate();
  return () => {
    if (me.data?.user) navigate("/create");
    else openAuthDialog({ mode: "login", redirect: "/create", message: "Please sign in to create a community" });
  };
}

export function Header() {
  const me = useMe();
  const createCommunity = useCreateCommunity();
  const signedIn = Boolean(me.data?.user);

  return (
    <header className="sticky top-0 z-40 border-b border-stone-200/80 bg-white/85 backdrop-blur supports-[backdrop-filter]:bg-white/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4 sm:px-6">
        <Link to="/" className="-m-1 rounded-lg p-1" aria-label="Hearth home">
          <Logo />
        </Link>
        <div className="ml-auto flex items-center gap-2 sm:gap-3">
          <Button variant={signedIn ? "primary" : "soft"} onClick={createCommunity}>
            <Plus className="size-4" aria-hidden="true" />
            <span className="hidden sm:inline">Create Community</span>
            <span className="sm:hidden">Create</span>
          </Button>
          {me.isPending ? (
            <span className="size-9 animate-pulse rounded-full bg-stone-200" aria-hidden="true" />
          ) : me.data?.user ? (
            <>
              <NotificationBell />
              <UserMenu me={me.data} />
            </>
          ) : (
            <Button variant="secondary" onClick={() => openAuthDialog({ mode: "login" })}>
              Log in
            </Button>
          )}
        </div>
      </div>
    </header>
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
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onSignOut}>
          <LogOut aria-hidden="true" />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
