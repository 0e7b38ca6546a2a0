import { Check, RotateCw } from "./glyphs";
import { useState } from "react";
import { useNavigate } from "react-router";
import { formatPrice, type RecurringInterval } from "#shared/payments";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { FormMessage } from "#web/components/ui/form-message";
import { Bone, LoadingRegion } from "#web/components/ui/load-states";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { goToCheckout, type Tier, useStartCheckout, useTiers } from "../api/billing";
import { intervalLabel } from "./billing-format";

export type PlanChooserProps = {
  community: { id: string; name: string };
  /** A private community's invite: lets someone who is not a member yet buy in. */
  inviteCode?: string;
  onOpenChange: (open: boolean) => void;
  /** A free tier's 'Join free' (JOIN or accepting the invite, which the server lets through). */
  onJoinFree: () => void;
  joiningFree?: boolean;
};

/** "€15/month", or for a trial "Free for 14 days, then €15/month". */
export function tierPriceText(tier: Tier, currency: string, interval: RecurringInterval) {
  const price = tier.prices[interval] ?? tier.prices.month;
  if (!price) return "Free";
  const text = formatPrice({ amount: price.amount, currency, interval: tier.prices[interval] ? interval : "month" });
  return tier.trial_days > 0 ? `Free for ${tier.trial_days} days, then ${text}` : text;
}

/**
 * The plan chooser (issue 18): a paid community's tiers with their prices, a monthly/annual switch
 * when a tier has an annual price; choosing a paid tier starts a checkout and goes to it. Rendered
 * open; the caller mounts it lazily.
 */
export function PlanChooser({ community, inviteCode, onOpenChange, onJoinFree, joiningFree }: PlanChooserProps) {
  const tiers = useTiers(community.id, true, inviteCode);
  const checkout = useStartCheckout();
  const navigate = useNavigate();
  const [interval, setInterval] = useState<RecurringInterval>("month");
  const [chosen, setChosen] = useState<string | null>(null);
  const annual = tiers.data?.tiers.some((t) => t.prices.year) ?? false;

  const choose = (tier: Tier) => {
    if (tier.free) return onJoinFree();
    setChosen(tier.id);
    checkout.mutate(
      {
        product: "tier",
        tier_id: tier.id,
        interval: tier.prices[interval] ? interval : "month",
        ...(inviteCode ? { invite_code: inviteCode } : {}),
      },
      { onSuccess: ({ url }) => goToCheckout(url, navigate) },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !checkout.isPending && onOpenChange(open)}>
      <DialogContent title="Choose your plan" description={`Join ${community.name}`} size="lg">
        <div className="px-6 pt-5 pb-6 sm:px-8 sm:pb-8">
          {annual && (
            <div role="group" aria-label="Billing period" className="mb-5 inline-flex rounded-full bg-stone-100 p-1">
              {(["month", "year"] as const).map((value) => (
                <button
                  key={value}
                  type="button"
                  aria-pressed={interval === value}
                  onClick={() => setInterval(value)}
                  className={cn(
                    "cursor-pointer rounded-full px-4 py-1.5 text-sm font-semibold transition-colors",
                    interval === value ? "bg-white text-stone-900 shadow-sm" : "text-stone-600 hover:text-stone-900",
                  )}
                >
                  {intervalLabel(value)}
                </button>
              ))}
            </div>
          )}
          {checkout.error && (
            <FormMessage tone="error" className="mb-4">
              {errorMessage(checkout.error, "Could not start the checkout. Please try again.", [
                "NOT_FOUND",
                "CONFLICT",
                "FORBIDDEN",
                "VALIDATION",
                "BAD_REQUEST",
              ])}
            </FormMessage>
          )}
          {tiers.isPending ? (
            <LoadingRegion label="Loading plans" className="grid gap-4 sm:grid-cols-2">
              <Bone className="h-48 rounded-2xl bg-stone-100" />
              <Bone className="h-48 rounded-2xl bg-stone-100" />
            </LoadingRegion>
          ) : tiers.isError ? (
            <FormMessage tone="error">
              <p>{errorMessage(tiers.error, "Failed to load the plans.", ["NOT_FOUND"])}</p>
              <Button variant="secondary" size="sm" className="mt-2" onClick={() => void tiers.refetch()}>
                <RotateCw className="size-4" aria-hidden="true" />
                Try again
              </Button>
            </FormMessage>
          ) : tiers.data.tiers.length === 0 ? (
            <p className="text-sm text-stone-600">This community has no plans on sale yet.</p>
          ) : (
            <ul className={cn("grid gap-4", tiers.data.tiers.length > 1 && "sm:grid-cols-2")} aria-label="Plans">
              {tiers.data.tiers.map((tier) => (
                <li
                  key={tier.id}
                  className="flex flex-col rounded-2xl bg-white p-5 shadow-xs ring-1 ring-stone-200"
                  aria-label={tier.name}
                >
                  <h3 className="text-lg font-bold text-stone-900">{tier.name}</h3>
                  <p className="mt-1 text-base font-semibold text-brand-800 tabular-nums">
                    {tierPriceText(tier, tiers.data.currency, interval)}
                  </p>
                  {interval === "year" && !tier.free && !tier.prices.year && (
                    <p className="text-xs text-stone-600">Monthly only</p>
                  )}
                  {tier.description && (
                    <p className="mt-3 flex gap-2 text-sm text-stone-700">
                      <Check className="mt-0.5 size-4 shrink-0 text-emerald-700" aria-hidden="true" />
                      <span className="break-words whitespace-pre-line">{tier.description}</span>
                    </p>
                  )}
                  <Button
                    className="mt-5 w-full"
                    variant={tier.free ? "secondary" : "primary"}
                    loading={tier.free ? joiningFree : checkout.isPending && chosen === tier.id}
                    disabled={checkout.isPending || joiningFree}
                    onClick={() => choose(tier)}
                  >
                    {tier.free ? "Join free" : `Choose ${tier.name}`}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
