import { CalendarCheck } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { PLANS, type PlanId, TRIAL_DAYS } from "#shared/plans";
import { SimulatedCardForm } from "#web/features/billing";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { errorMessage } from "#web/lib/api";
import { Button } from "#web/components/ui/button";
import { usePublicConfig } from "#web/lib/public-config";
import { useStartTrialMutation } from "#web/features/billing";
import { dateFormat, PricingPage, usePlanParam, useSignedInOrHome } from "./pricing-page";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A v4 UUID; crypto.randomUUID exists only on HTTPS and localhost, a self-hosted Hearth may be plain HTTP. */
function newRequestId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** /signup/payment: the plans with the payment modal over them (SPEC §2, §4). */
export function PaymentPage() {
  const user = useSignedInOrHome();
  const plan = usePlanParam();
  return (
    <>
      <PricingPage />
      {user && <PaymentDialog plan={plan} email={user.email} />}
    </>
  );
}

function PaymentDialog({ plan, email }: { plan: PlanId; email: string }) {
  const navigate = useNavigate();
  const start = useStartTrialMutation();
  // One id per opening of the modal: a retried submit answers the same community, never a second.
  const [requestId] = useState(newRequestId);
  const [trialEnds] = useState(() => new Date(Date.now() + TRIAL_DAYS * DAY_MS));
  const details = PLANS[plan];
  const close = () => navigate(`/signup/pricing?plan=${plan}`);
  const stripe = usePublicConfig().data?.payments_provider === "stripe";

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        // No closing while the community is being made.
        if (!open && !start.isPending) close();
      }}
    >
      <DialogContent
        title="Complete your purchase"
        description={`${details.label} plan, free for ${TRIAL_DAYS} days.`}
        size="md"
        onOpenAutoFocus={(event) => {
          // The locked email needs no typing: start at the first field that does.
          event.preventDefault();
          (event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>("input:not([readonly])")?.focus();
        }}
      >
        <div className="px-6 pt-5 pb-6 sm:px-8 sm:pb-8">
          <dl className="mb-5 divide-y divide-stone-200 rounded-2xl bg-stone-50 text-sm ring-1 ring-stone-200">
            <div className="flex items-start justify-between gap-4 p-4">
              <dt>
                <span className="block font-semibold text-stone-900">Hearth {details.label}</span>
                <span className="text-stone-600">
                  {details.billed}
                  {details.saving && <> · {details.saving}</>}
                </span>
              </dt>
              <dd className="text-right font-semibold text-stone-900 tabular-nums">${details.pricePerMonth}/month</dd>
            </div>
            <div className="flex items-center justify-between gap-4 p-4">
              <dt className="flex items-center gap-2 text-stone-700">
                <CalendarCheck className="size-4 text-brand-700" aria-hidden="true" />
                Free trial ends
              </dt>
              <dd className="text-stone-900">{dateFormat.format(trialEnds)}</dd>
            </div>
            <div className="flex items-center justify-between gap-4 p-4">
              <dt className="font-semibold text-stone-900">Due today</dt>
              <dd className="text-lg font-bold text-stone-900 tabular-nums">$0.00</dd>
            </div>
          </dl>
          {stripe ? (
            <div className="space-y-3">
              {start.error && (
                <p role="alert" className="text-sm text-red-700">
                  {errorMessage(start.error, "Your trial could not be started. Please try again.", ["CONFLICT"])}
                </p>
              )}
              <Button
                className="w-full"
                disabled={start.isPending}
                onClick={async () => {
                  const result = await start.mutateAsync({ plan, request_id: requestId });
                  // The card is taken on Stripe's own page; the plan starts when Stripe confirms it.
                  if (result.checkout_url) window.location.assign(result.checkout_url);
                  else navigate(result.community ? `/community/${result.community.slug}/setup` : "/");
                }}
              >
                {start.isPending ? "Opening secure checkout…" : "Continue to secure checkout"}
              </Button>
            </div>
          ) : (
            <SimulatedCardForm
              submitLabel="Start Free Trial"
              email={{ value: email, locked: Boolean(email) }}
              error={
                start.error
                  ? errorMessage(start.error, "Your trial could not be started. Please try again.", ["CONFLICT"])
                  : null
              }
              onCancel={close}
              onPaid={async () => {
                const result = await start.mutateAsync({ plan, request_id: requestId });
                // No community only when a replay finds the one it made already deleted.
                navigate(result.community ? `/community/${result.community.slug}/setup` : "/");
              }}
            />
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
