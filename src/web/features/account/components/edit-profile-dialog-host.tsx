import { lazy, Suspense, useEffect, useState } from "react";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { EDIT_PROFILE_EVENT, type EditProfileTab } from "#web/lib/edit-profile-events";
import { useMe } from "#web/lib/session";

const EditProfileDialog = lazy(() => import("./edit-profile-dialog").then((m) => ({ default: m.EditProfileDialog })));

/** Owns the one Edit Profile dialog; `openEditProfile()` opens it from anywhere. */
export function EditProfileDialogHost() {
  const me = useMe();
  const signedIn = Boolean(me.data?.user);
  const [request, setRequest] = useState<{ tab: EditProfileTab; instance: number } | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const onRequest = (event: Event) => {
      const tab = (event as CustomEvent<{ tab: EditProfileTab }>).detail?.tab ?? "profile";
      if (!signedIn) {
        openAuthDialog({ mode: "login", message: "Log in to edit your profile." });
        return;
      }
      setRequest((previous) => ({ tab, instance: (previous?.instance ?? 0) + 1 }));
      setOpen(true);
    };
    window.addEventListener(EDIT_PROFILE_EVENT, onRequest);
    return () => window.removeEventListener(EDIT_PROFILE_EVENT, onRequest);
  }, [signedIn]);

  if (!request || !signedIn) return null;
  return (
    <Suspense fallback={null}>
      <EditProfileDialog key={request.instance} open={open} onOpenChange={setOpen} initialTab={request.tab} />
    </Suspense>
  );
}
