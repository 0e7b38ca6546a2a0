import { useState } from "react";
import { formatPrice, type RecurringInterval } from "#shared/payments";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { FormMessage } from "#web/components/ui/form-message";
import { Bone, LoadingRegion } from "#web/components/ui/load-states";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { toast } from "#web/lib/toast";
import { type Subscription, useSubscriptionActions, useTiers } from "../api/billing";

/** Change plan: another tier or interval of the same community, at its current price. */
export function ChangePlanDialog({
  subscription: s,
  communityId,
  onClose,
}: {
  subscription: Subscription;
  communityId: string;
  onClose: () => void;
}) {
  const tiers = useTiers(communityId);
  const { change } = useSubscriptionActions(s.id);
  const [choice, setChoice] = useState<{ tier_id: string; interval: RecurringInterval } | null>(
    s.tier && s.interval !== "once" ? { tier_id: s.tier.id, interval: s.interval } : null,
  );
  const unchanged = choice?.tier_id === s.tier?.id && choice?.interval === s.interval;
  const options =
    tiers.data?.tiers.flatMap((t) =>
      t.free
        ? []
        : (["month", "year"] as const).flatMap((interval) => {
            const price = t.prices[interval];
            return price ? [{ tier: t, interval, amount: price.amount }] : [];
          }),
    ) ?? [];

  return (
    <Dialog open onOpenChange={(open) => !open && !change.isPending && onClose()}>
      <DialogContent title="Change plan" description={s.community?.name} size="md">
        <div className="px-6 pt-5 pb-6 sm:px-8 sm:pb-8">
          {tiers.isPending ? (
            <LoadingRegion label="Loading plans" className="space-y-3">
              <Bone className="h-14 rounded-xl bg-stone-100" />
              <Bone className="h-14 rounded-xl bg-stone-100" />
            </LoadingRegion>
          ) : tiers.isError ? (
            <FormMessage tone="error">Failed to load the plans.</FormMessage>
          ) : (
            <fieldset>
              <legend className="sr-only">Plans</legend>
              <div className="space-y-2">
                {options.map(({ tier, interval, amount }) => {
                  const selected = choice?.tier_id === tier.id && choice.interval === interval;
                  const current = s.tier?.id === tier.id && s.interval === interval;
                  return (
                    <label
                      key={`${tier.id}-${interval}`}
                      className={cn(
                        "flex cursor-pointer items-center justify-between gap-3 rounded-xl px-4 py-3 ring-1",
                        selected ? "bg-brand-50 ring-brand-600" : "ring-stone-200 hover:bg-stone-50",
                      )}
                    >
                      <span className="flex items-center gap-3">
                        <input
                          type="radio"
                          name="plan"
                          checked={selected}
                          onChange={() => setChoice({ tier_id: tier.id, interval })}
                          className="accent-brand-700"
                        />
                        <span className="font-medium text-stone-900">
                          {tier.name}
                          {current && <span className="ml-2 text-xs font-normal text-stone-600">(current)</span>}
                        </span>
                      </span>
                      <span className="text-sm text-stone-700 tabular-nums">
                        {formatPrice({ amount, currency: tiers.data.currency, interval })}
                      </span>
                    </label>
                  );
                })}
              </div>
            </fieldset>
          )}
          {change.error && (
            <FormMessage tone="error" className="mt-4">
              {errorMessage(change.error, "Could not change the plan. Please try again.", [
                "NOT_FOUND",
                "CONFLICT",
                "BAD_REQUEST",
                "VALIDATION",
              ])}
            </FormMessage>
          )}
          <p className="mt-4 text-sm text-stone-600">The change is prorated on your next charge.</p>
          <div className="mt-5 flex justify-end gap-2">
            <Button variant="ghost" onClick={onClose} disabled={change.isPending}>
              Cancel
            </Button>
            <Button
              loading={change.isPending}
              disabled={!choice || unchanged}
              onClick={() =>
                choice &&
                change.mutate(choice, {
                  onSuccess: () => {
                    toast.success("Your plan was changed.");
                    onClose();
                  },
                })
              }
            >
              Change plan
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
