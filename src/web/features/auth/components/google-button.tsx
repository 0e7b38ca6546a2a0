import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { publicConfigQueryOptions, usePublicConfig } from "#web/lib/public-config";
import { useSocialSignIn } from "../api/social-sign-in";
import { Button } from "#web/components/ui/button";
import { OrDivider } from "#web/components/ui/or-divider";

export function GoogleIcon({ className = "size-4" }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden="true">
      <path
        fill="#4285F4"
        d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.7Z"
      />
      <path
        fill="#34A853"
        d="M12 24c3.2 0 6-1.1 7.9-2.9l-3.9-3c-1 .7-2.4 1.1-4 1.1-3.1 0-5.7-2.1-6.7-4.9h-4v3.1A12 12 0 0 0 12 24Z"
      />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8l4-3.1Z" />
      <path fill="#EA4335" d="M12 4.8c1.7 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1C6.3 6.9 8.9 4.8 12 4.8Z" />
    </svg>
  );
}

/**
 * Google sign-in, which comes back to /signup/pricing (SPEC §7). `start` resolves false, leaving the
 * page as it is, when this installation has no Google client configured. The configuration is read
 * on the click (usually from the cache), so a page that only shows the button loads without it.
 */
export function useGoogleSignIn() {
  const queryClient = useQueryClient();
  const social = useSocialSignIn();
  const [checking, setChecking] = useState(false);
  const start = async (): Promise<boolean> => {
    setChecking(true);
    const config = await queryClient.fetchQuery(publicConfigQueryOptions()).catch(() => null);
    setChecking(false);
    if (!config?.google_enabled) return false;
    social.mutate(undefined, {
      onSuccess: (result) => {
        if (result.url) window.location.assign(result.url);
      },
      // SPEC §8: a Google sign-in failure is only logged.
      onError: (error) => console.error("Google sign-in failed", error),
    });
    return true;
  };
  return { start, pending: checking || social.isPending };
}

/** Shown only when this installation has Google sign-in configured. */
export function GoogleSignIn() {
  const config = usePublicConfig();
  const google = useGoogleSignIn();
  if (!config.data?.google_enabled) return null;
  return (
    <>
      <Button
        variant="secondary"
        size="lg"
        className="w-full"
        onClick={() => void google.start()}
        loading={google.pending}
      >
        {!google.pending && <GoogleIcon />}
        Continue with Google
      </Button>
      <OrDivider />
    </>
  );
}
