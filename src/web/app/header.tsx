import { Plus } from "lucide-react";
import { lazyPart } from "#web/lib/lazy-part";
import { Suspense } from "react";
import { Link, useNavigate } from "react-router";
import { Logo } from "#web/components/layout/logo";
import { Button } from "#web/components/ui/button";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { useMe } from "#web/lib/session";
import { Bone } from "#web/components/ui/load-states";
import { useIdle } from "#web/lib/use-idle";

// The bell and the user menu (Radix popover and menu) load only for someone signed in.
const SignedInControls = lazyPart("SignedInControls", () =>
  import("./signed-in-controls").then(({ SignedInControls }) => ({ default: SignedInControls })),
);

// The community switcher (a Radix menu) loads once the page is idle, never with the first page.
const CommunitySwitcher = lazyPart("CommunitySwitcher", () =>
  import("#web/features/communities/components/community-switcher").then(({ CommunitySwitcher }) => ({
    default: CommunitySwitcher,
  })),
);

// The search box (across communities) loads once the page is idle too: every page has the header.
const HeaderSearch = lazyPart("HeaderSearch", () =>
  import("#web/features/search/components/header-search").then(({ HeaderSearch }) => ({ default: HeaderSearch })),
);

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
  const idle = useIdle();

  return (
    <header className="sticky top-0 z-40 border-b border-stone-200/80 bg-white/85 backdrop-blur supports-[backdrop-filter]:bg-white/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4 sm:px-6">
        <Link to="/" className="-m-1 rounded-lg p-1" aria-label="Hearth home">
          {/* The mark alone on phones: the header's controls need the room. */}
          <Logo className="max-sm:[&>span:last-child]:hidden" />
        </Link>
        {signedIn && (
          <Suspense fallback={switcherPlaceholder}>{idle ? <CommunitySwitcher /> : switcherPlaceholder}</Suspense>
        )}
        <Suspense fallback={searchPlaceholder}>{idle ? <HeaderSearch /> : searchPlaceholder}</Suspense>
        <div className="flex items-center gap-2 sm:gap-3">
          {/* An icon on phones (the header holds search, switcher, chat, bell and avatar there too). */}
          <Button
            variant={signedIn ? "primary" : "soft"}
            onClick={createCommunity}
            className="max-sm:size-10 max-sm:px-0"
          >
            <Plus className="size-4" aria-hidden="true" />
            <span className="max-sm:sr-only">Create Community</span>
          </Button>
          {me.isPending ? (
            avatarPlaceholder
          ) : me.data?.user ? (
            <Suspense fallback={avatarPlaceholder}>
              <SignedInControls me={me.data} />
            </Suspense>
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

const searchPlaceholder = <Bone className="ml-auto size-10 rounded-xl bg-stone-100 md:w-56 lg:w-72" />;
const switcherPlaceholder = <Bone className="h-10 w-12 rounded-xl bg-stone-100 md:w-36" />;
const avatarPlaceholder = <Bone className="size-9 rounded-full bg-stone-200" />;
