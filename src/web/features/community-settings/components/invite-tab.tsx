import { RefreshCw, UserPlus } from "lucide-react";
import { useState } from "react";
import { ONBOARDING_INVITES_NEEDED } from "#shared/communities";
import { ConfirmDialog } from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { SwitchRow } from "#web/components/ui/switch";
import { useFlashMessage } from "#web/lib/use-flash-message";
import { type CommunityView, useCommunityStats } from "#web/features/communities";
import { useRegenerateInvite } from "../api/regenerate-invite";
import { useUpdateCommunity } from "../api/update-community";
import { InviteLinkField } from "./invite-link-field";
import { PanelBody, PanelHeader, PanelSection, saveErrorMessage } from "./settings-panel";

/** The invite link: copy it, turn it on or off (saved at once), or replace it. */
export function InviteTab({ community }: { community: CommunityView }) {
  const update = useUpdateCommunity(community.id);
  const regenerate = useRegenerateInvite(community.id);
  const stats = useCommunityStats(community.id);
  const flash = useFlashMessage();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // While the switch saves it shows the new position.
  const enabled =
    update.isPending && update.variables?.invite_enabled !== undefined
      ? update.variables.invite_enabled
      : community.invite_enabled;

  const onToggle = (next: boolean) => {
    flash.clear();
    setError(null);
    update.mutate(
      { invite_enabled: next },
      {
        onSuccess: () => flash.show(next ? "Invite link turned on." : "Invite link turned off."),
        onError: setError,
      },
    );
  };

  const onRegenerate = () => {
    flash.clear();
    setError(null);
    regenerate.mutate(undefined, {
      onSuccess: () => flash.show("A new invite link is ready. The old one no longer works."),
      onError: setError,
    });
  };

  const joined = stats.data?.joined_via_invite;

  return (
    <PanelBody>
      <PanelHeader
        title="Invite"
        description="Share this link with people you want in your community. Anyone who has it can join."
      />
      {community.invite_code ? (
        <div className="space-y-5 rounded-xl border border-stone-200 bg-white p-4 shadow-xs sm:p-5">
          <InviteLinkField code={community.invite_code} disabled={!enabled} />
          <div className="flex flex-col gap-3 border-t border-stone-200 pt-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="flex items-center gap-2 text-sm text-stone-700">
              <UserPlus className="size-4 text-brand-700" aria-hidden="true" />
              {joined === undefined ? (
                "People who joined through your invites"
              ) : (
                <span>
                  <strong className="font-semibold text-stone-900 tabular-nums">{joined}</strong>{" "}
                  {joined === 1 ? "person has" : "people have"} joined through your invites
                  {joined < ONBOARDING_INVITES_NEEDED &&
                    `; ${ONBOARDING_INVITES_NEEDED - joined} more to finish that onboarding step`}
                </span>
              )}
            </p>
            <Button variant="secondary" size="sm" onClick={() => setConfirming(true)} loading={regenerate.isPending}>
              {!regenerate.isPending && <RefreshCw className="size-4" aria-hidden="true" />}
              Regenerate link
            </Button>
          </div>
        </div>
      ) : (
        <FormMessage tone="info">Only owners and admins can see and share the invite link.</FormMessage>
      )}

      <PanelSection title="Invite link access">
        <div className="rounded-xl border border-stone-200 bg-white px-4">
          <SwitchRow
            label="Allow joining with the invite link"
            description="Turn this off to stop new members joining through the link. Members who already joined stay."
            checked={enabled}
            onCheckedChange={onToggle}
            disabled={update.isPending || !community.invite_code}
          />
        </div>
      </PanelSection>

      <div aria-live="polite" className="space-y-2">
        {error ? <FormMessage tone="error">{saveErrorMessage(error)}</FormMessage> : null}
        {flash.message && <FormMessage tone="success">{flash.message}</FormMessage>}
      </div>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Regenerate the invite link?"
        description="The current link stops working at once. Anyone you already sent it to will need the new one. People who joined stay members."
        confirmLabel="Regenerate link"
        cancelLabel="Keep current link"
        onConfirm={() => {
          setConfirming(false);
          onRegenerate();
        }}
      />
    </PanelBody>
  );
}
