import { BellOff, Home, Link2Off, RotateCw, Settings } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link, useSearchParams } from "react-router";
import { MSG } from "#shared/messages";
import { EmptyState } from "#web/components/empty-state";
import { Button, buttonClasses } from "#web/components/ui/button";
import { Spinner } from "#web/components/ui/spinner";
import { ApiError, errorMessage } from "#web/lib/api";
import { openEditProfile } from "#web/lib/edit-profile-events";
import { useMe } from "#web/lib/session";
import { useUnsubscribe } from "../api/unsubscribe";

/**
 * /notifications/unsubscribe?token= — the link in every digest email. The token is sent once on
 * arrival (no sign-in needed); the server says whether it was good.
 */
export function UnsubscribePage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token") ?? "";
  const me = useMe();
  const signedIn = Boolean(me.data?.user);
  const unsubscribe = useUnsubscribe();
  const { mutate } = unsubscribe;

  // Once per token, also when React runs effects twice in development.
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (sent.current === token) return;
    sent.current = token;
    mutate(token);
  }, [token, mutate]);

  const home = (
    <Link to="/" className={buttonClasses({ variant: "secondary" })}>
      <Home className="size-4" aria-hidden="true" />
      Go to Hearth
    </Link>
  );

  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-12 sm:px-6 sm:py-20">
      <title>Email notifications · Hearth</title>
      {unsubscribe.isSuccess ? (
        <EmptyState
          icon={BellOff}
          title="Email notifications are off"
          headingLevel={1}
          action={
            signedIn ? (
              <Button onClick={() => openEditProfile("notifications")}>
                <Settings className="size-4" aria-hidden="true" />
                Manage notification settings
              </Button>
            ) : (
              home
            )
          }
        >
          We won&apos;t email you about activity in your communities any more. You&apos;ll still see it under the bell
          in Hearth, and you can turn emails back on at any time in your notification settings.
        </EmptyState>
      ) : unsubscribe.isError ? (
        <EmptyState
          icon={Link2Off}
          title="We couldn't turn off your emails"
          headingLevel={1}
          action={
            unsubscribe.error instanceof ApiError && unsubscribe.error.status === 400 ? (
              home
            ) : (
              <Button variant="secondary" onClick={() => mutate(token)}>
                <RotateCw className="size-4" aria-hidden="true" />
                Try again
              </Button>
            )
          }
        >
          <p role="alert">
            {unsubscribe.error instanceof ApiError && unsubscribe.error.status === 400
              ? unsubscribe.error.message
              : errorMessage(unsubscribe.error, MSG.unexpectedError)}
          </p>
        </EmptyState>
      ) : (
        <div className="flex justify-center py-16">
          <Spinner label="Turning off email notifications" />
        </div>
      )}
    </main>
  );
}
