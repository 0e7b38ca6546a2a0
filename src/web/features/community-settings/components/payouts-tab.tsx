import { RefreshCw } from "lucide-react";
import { useEffect, useRef } from "react";
import { CONNECT_STATUS_LABELS, PAYOUT_MESSAGES } from "#shared/payouts";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import type { CommunityView } from "#web/features/communities";
import { type Payouts, useConnectPayouts, usePayouts, useRefreshPayouts } from "../api/payouts";
import { PanelBody, PanelHeader, PanelSection } from "./settings-panel";

const STATUS_TONE: Record<Payouts["status"], string> = {
  not_connected: "bg-stone-100 text-stone-700",
  onboarding: "bg-amber-100 text-amber-800",
  active: "bg-emerald-100 text-emerald-800",
  restricted: "bg-red-100 text-red-800",
};

const FLAGS = [
  ["details_submitted", "Details submitted"],
  ["charges_enabled", "Takes payments"],
  ["payouts_enabled", "Pays out to your bank"],
] as const;

function ConnectPanel({ communityId, payouts }: { communityId: string; payouts: Payouts }) {
  const connect = useConnectPayouts(communityId);
  const refresh = useRefreshPayouts(communityId);
  const start = () =>
    connect.mutate(undefined, {
      onSuccess: ({ url }) => window.location.assign(url),
    });
  const error = connect.error ?? refresh.error;
  // Back from Stripe's onboarding, its word may not have arrived yet: ask Stripe once on opening.
  const asked = useRef(false);
  const unfinished = payouts.account !== null && payouts.status !== "active";
  useEffect(() => {
    if (!unfinished || asked.current) return;
    asked.current = true;
    refresh.mutate();
  }, [unfinished, refresh]);
  return (
    <div className="space-y-5">
      <PanelSection
        title="Your Stripe account"
        description="Members' payments go to your own Stripe account, and Stripe pays out to your bank."
      >
        <div className="space-y-4 rounded-xl border border-stone-200 bg-white p-4 shadow-xs sm:p-5">
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-sm font-medium text-stone-800">Status</span>
            <span className={cn("rounded-full px-2.5 py-0.5 text-xs font-semibold", STATUS_TONE[payouts.status])}>
              {CONNECT_STATUS_LABELS[payouts.status]}
            </span>
          </div>
          {payouts.account && (
            <ul className="space-y-1 text-sm text-stone-700">
              {FLAGS.map(([key, label]) => (
                <li key={key}>
                  {payouts.account![key] ? "✓" : "✗"} {label}
                </li>
              ))}
            </ul>
          )}
          {payouts.status === "restricted" && <FormMessage tone="info">{PAYOUT_MESSAGES.restricted}</FormMessage>}
          {payouts.status === "not_connected" && (
            <p className="text-sm text-stone-600">Connect a Stripe account before members can pay.</p>
          )}
          <div className="flex flex-wrap gap-2">
            {payouts.status !== "active" && (
              <Button onClick={start} loading={connect.isPending || connect.isSuccess}>
                {payouts.status === "not_connected" ? "Connect Stripe" : "Continue onboarding"}
              </Button>
            )}
            {payouts.account && (
              <Button variant="secondary" onClick={() => refresh.mutate()} loading={refresh.isPending}>
                {!refresh.isPending && <RefreshCw className="size-4" aria-hidden="true" />}
                Refresh status
              </Button>
            )}
          </div>
          {error && (
            <FormMessage tone="error">
              {errorMessage(error, "Could not reach Stripe. Please try again.", ["CONFLICT", "FORBIDDEN"])}
            </FormMessage>
          )}
        </div>
      </PanelSection>
      <PanelSection title="Platform fee">
        <p className="text-sm text-stone-700">
          This Hearth keeps <strong className="font-semibold text-stone-900">{payouts.fee_percent}%</strong> of each
          payment; Stripe's own fees come out of the rest.
        </p>
      </PanelSection>
    </div>
  );
}

/** Payouts (owner): where members' payments go, and connecting a Stripe account where this Hearth asks for one. */
export function PayoutsTab({ community }: { community: CommunityView }) {
  const payouts = usePayouts(community.id);
  return (
    <PanelBody>
      <PanelHeader title="Payouts" description="Where the money your members pay goes." />
      {payouts.isPending ? (
        <div aria-busy="true" className="h-40 animate-pulse rounded-xl bg-stone-200/70" />
      ) : payouts.isError ? (
        <FormMessage tone="error">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span>Could not load your payouts. Please try again.</span>
            <Button variant="secondary" size="sm" onClick={() => void payouts.refetch()} loading={payouts.isFetching}>
              Try again
            </Button>
          </div>
        </FormMessage>
      ) : payouts.data.mode === "instance" ? (
        <FormMessage tone="info">
          {PAYOUT_MESSAGES.instanceMode}
          {payouts.data.provider === "simulated"
            ? ": payments are simulated here and no money moves."
            : ". There is nothing to set up."}
        </FormMessage>
      ) : (
        <ConnectPanel communityId={community.id} payouts={payouts.data} />
      )}
    </PanelBody>
  );
}
