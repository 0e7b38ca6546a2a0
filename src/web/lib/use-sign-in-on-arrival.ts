import { useEffect, useRef } from "react";
import { type AuthDialogRequest, openAuthDialog } from "./auth-dialog-events";
import { useMe } from "./session";

/**
 * For a page that needs a signed-in user: arriving signed out opens the sign-in dialog once (it
 * leads back here); signing out on the page only shows the page's signed-out state.
 */
export function useSignInOnArrival(request: AuthDialogRequest) {
  const me = useMe();
  const signedIn = Boolean(me.data?.user);
  const signedOut = me.isSuccess && !signedIn;
  const arrival = useRef<"signed-in" | "signed-out" | null>(null);
  const latest = useRef(request);
  useEffect(() => {
    latest.current = request;
  });
  useEffect(() => {
    if (!me.isSuccess || arrival.current) return;
    arrival.current = signedOut ? "signed-out" : "signed-in";
    if (signedOut) openAuthDialog(latest.current);
  }, [me.isSuccess, signedOut]);
  return { me, signedIn, signedOut };
}
