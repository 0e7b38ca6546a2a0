import { Outlet, ScrollRestoration, useMatches } from "react-router";
import { Footer } from "#web/components/layout/footer";
import { AuthDialogHost } from "#web/features/auth";
import { EditProfileDialogHost } from "#web/features/account";
import { Header } from "./header";

/** A route whose module exports `handle = { ownFooter: true }` draws its own footer. */
const hasOwnFooter = (handle: unknown) => Boolean((handle as { ownFooter?: boolean } | undefined)?.ownFooter);

export function RootLayout() {
  const ownFooter = useMatches().some((match) => hasOwnFooter(match.handle));
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-brand-800 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <Header />
      {/* At least a screen tall (below the 4rem header): the footer starts below the fold, so a page
          whose content arrives after its first paint does not push it down (layout shift). */}
      <div className="min-h-[calc(100svh-4rem)] flex-1">
        <Outlet />
      </div>
      {!ownFooter && <Footer />}
      <AuthDialogHost />
      <EditProfileDialogHost />
      <ScrollRestoration />
    </div>
  );
}
