import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { LIMITS } from "#shared/limits";
import {
  AUTH_DIALOG_MODES,
  type AuthDialogMode,
  type AuthDialogRequest,
  onAuthDialogRequest,
  openAuthDialog,
} from "#web/lib/auth-dialog-events";
import { useMe } from "#web/lib/session";

const AuthDialog = lazy(() => import("./auth-dialog").then((m) => ({ default: m.AuthDialog })));

/**
 * Takes the requests of `openAuthDialog` and owns the one auth dialog. Also opens it from a link:
 * `?auth=login|signup|forgot&redirect=/path&email=…` (the redirect still goes through
 * safeRedirectPath after success).
 */
export function AuthDialogHost() {
  const [request, setRequest] = useState<AuthDialogRequest | null>(null);
  const [open, setOpen] = useState(false);
  const [instance, setInstance] = useState(0);
  const resetTimer = useRef<number | undefined>(undefined);

  useEffect(() => {
    const unsubscribe = onAuthDialogRequest((detail) => {
      if (!AUTH_DIALOG_MODES.includes(detail.mode)) return;
      window.clearTimeout(resetTimer.current);
      setRequest(detail);
      setInstance((n) => n + 1);
      setOpen(true);
    });
    return () => {
      unsubscribe();
      window.clearTimeout(resetTimer.current);
    };
  }, []);

  const [searchParams, setSearchParams] = useSearchParams();
  const linkMode = searchParams.get("auth");
  const me = useMe();
  const sessionKnown = !me.isPending;
  const signedIn = Boolean(me.data?.user);
  useEffect(() => {
    if (!linkMode || !sessionKnown) return;
    const next = new URLSearchParams(searchParams);
    const redirect = next.get("redirect") ?? undefined;
    const email = next.get("email") ?? undefined;
    for (const key of ["auth", "redirect", "email"]) next.delete(key);
    setSearchParams(next, { replace: true });
    // Someone already signed in has nothing to do in the dialog.
    if (!signedIn && AUTH_DIALOG_MODES.includes(linkMode as AuthDialogMode)) {
      openAuthDialog({ mode: linkMode as AuthDialogMode, redirect, email });
    }
  }, [linkMode, sessionKnown, signedIn, searchParams, setSearchParams]);

  const onOpenChange = useCallback((next: boolean) => {
    setOpen(next);
    if (!next) {
      // Fields reset 300 ms after closing (SPEC §4, §9): a new instance starts clean.
      window.clearTimeout(resetTimer.current);
      resetTimer.current = window.setTimeout(() => setInstance((n) => n + 1), LIMITS.dialogResetMs);
    }
  }, []);

  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <AuthDialog key={instance} open={open} onOpenChange={onOpenChange} request={request} />
    </Suspense>
  );
}
