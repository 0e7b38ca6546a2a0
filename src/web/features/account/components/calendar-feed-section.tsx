import { Check, Copy, RefreshCw } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { TextField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { Bone, LoadingRegion } from "#web/components/ui/load-states";
import { errorMessage } from "#web/lib/api";
import { toast } from "#web/lib/toast";
import { useCalendarFeed, useResetCalendarFeed, useTurnOffCalendarFeed } from "../api/calendar-feed";

const FAILED = "Could not change your calendar feed. Please try again.";

/**
 * The private calendar feed (issue 19): a secret URL a calendar app subscribes to, holding the
 * events of every community the person may attend. Made, reset (a new URL, the old one stops) or
 * turned off here.
 */
export function CalendarFeedSection() {
  const feed = useCalendarFeed();
  const reset = useResetCalendarFeed();
  const turnOff = useTurnOffCalendarFeed();
  const [confirm, setConfirm] = useState<"reset" | "off" | null>(null);
  const [copied, setCopied] = useState(false);
  const failure = reset.error ?? turnOff.error;

  const url = feed.data?.url ?? null;
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error("Could not copy. Select the link and copy it instead.");
    }
  };

  return (
    <div className="space-y-4">
      <p className="text-sm text-stone-600">
        Subscribe to your Hearth events in Google Calendar, Apple Calendar or Outlook. The feed has the events of every
        community you can attend and updates when they change.
      </p>
      {feed.isPending ? (
        <LoadingRegion label="Loading your calendar feed">
          <Bone className="h-10 w-full rounded-lg" />
        </LoadingRegion>
      ) : feed.isError ? (
        <FormMessage tone="error">{errorMessage(feed.error, "Could not load your calendar feed.")}</FormMessage>
      ) : url ? (
        <>
          <TextField
            label="Your calendar feed link"
            value={url}
            readOnly
            onFocus={(e) => e.currentTarget.select()}
            hint="Keep this link private: anyone who has it can see your events."
          />
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" size="sm" onClick={copy} aria-label={copied ? undefined : "Copy feed link"}>
              {copied ? (
                <Check className="size-4" aria-hidden="true" />
              ) : (
                <Copy className="size-4" aria-hidden="true" />
              )}
              {copied ? "Copied" : "Copy"}
            </Button>
            <Button variant="secondary" size="sm" loading={reset.isPending} onClick={() => setConfirm("reset")}>
              <RefreshCw className="size-4" aria-hidden="true" />
              Reset link
            </Button>
            <Button
              variant="ghost"
              size="sm"
              loading={turnOff.isPending}
              onClick={() => setConfirm("off")}
              aria-label="Turn off calendar feed"
            >
              Turn off
            </Button>
          </div>
        </>
      ) : (
        <Button onClick={() => reset.mutate()} loading={reset.isPending}>
          Create feed link
        </Button>
      )}
      {failure && <FormMessage tone="error">{errorMessage(failure, FAILED)}</FormMessage>}
      <ConfirmDialog
        open={confirm === "reset"}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="Reset your calendar feed link?"
        description="Calendar apps subscribed to the current link stop getting your events. Subscribe again with the new link."
        confirmLabel="Reset link"
        onConfirm={() => reset.mutate()}
      />
      <ConfirmDialog
        open={confirm === "off"}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="Turn off your calendar feed?"
        description="Calendar apps subscribed to it stop getting your events. You can create a new link later."
        confirmLabel="Turn off"
        destructive
        onConfirm={() => turnOff.mutate()}
      />
    </div>
  );
}
