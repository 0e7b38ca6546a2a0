import { useQueryClient } from "@tanstack/react-query";
import { CircleAlert, CreditCard, RotateCw } from "./glyphs";
import { useEffect, useRef } from "react";
import { Link, useNavigate } from "react-router";
import { formatMoney, formatPrice, PAYMENT_MESSAGES as PM } from "#shared/payments";
import { SignInPrompt } from "#web/components/sign-in-prompt";
import { Button, buttonClasses } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { Bone, LoadingRegion } from "#web/components/ui/load-states";
import { Spinner } from "#web/components/ui/spinner";
import { errorMessage } from "#web/lib/api";
import { toast } from "#web/lib/toast";
import { useSignInOnArrival } from "#web/lib/use-sign-in-on-arrival";
import { type Checkout, useCheckout, useSimulatedPayment } from "../api/billing";
import { SimulatedCardForm } from "./simulated-card-form";

/** "Free for 14 days, then €15/month", "€15/month", "€49". */
export function checkoutPriceText(product: Checkout["product"]) {
  const price = formatPrice(product);
  return product.trial_days > 0 ? `Free for ${product.trial_days} days, then ${price}` : price;
}

/**
 * /billing/checkout/:checkoutId — what is bought; in simulated mode the card form (its fields stay
 * in the browser); then the wait for the provider's confirmation, polled every second, and on to
 * what was bought.
 */
export function CheckoutPage({ checkoutId }: { checkoutId: string }) {
  const path = `/billing/checkout/${encodeURIComponent(checkoutId)}`;
  const signIn = { mode: "login", redirect: path, message: "Sign in to finish your payment." } as const;
  const { me, signedIn, signedOut } = useSignInOnArrival(signIn);
  const pay = useSimulatedPayment(checkoutId);
  const checkout = useCheckout(checkoutId, { enabled: signedIn, poll: true });
  const data = checkout.data;
  // Stripe sends the browser back here after its own form: only the wait is left.
  const waiting = data?.status === "open" && (data.provider === "stripe" || pay.isSuccess);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const done = useRef(false);

  useEffect(() => {
    if (data?.status !== "complete" || done.current) return;
    done.current = true;
    toast.success(PM.confirmed);
    // The new membership or course opens pages cached without it.
    void queryClient.invalidateQueries({
      predicate: (q) => q.queryKey[0] !== "billing" || q.queryKey[1] === "overview",
    });
    navigate(data.return_to, { replace: true });
  }, [data, navigate, queryClient]);

  return (
    <main id="main" className="mx-auto max-w-lg px-4 py-8 sm:py-14">
      <title>Checkout · Hearth</title>
      <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight text-stone-900">
        <CreditCard className="size-6 text-brand-700" aria-hidden="true" />
        Checkout
      </h1>
      <div className="mt-6">
        {me.isPending || (signedIn && checkout.isPending) ? (
          <LoadingRegion label="Loading checkout" className="space-y-4">
            <Bone className="h-20 rounded-2xl bg-stone-200/70" />
            <Bone className="h-64 rounded-2xl bg-stone-100" />
          </LoadingRegion>
        ) : signedOut ? (
          <SignInPrompt request={signIn} title="Sign in to finish your payment">
            Your checkout is waiting for you.
          </SignInPrompt>
        ) : checkout.isError || !data ? (
          <FormMessage tone="error">
            <p>{errorMessage(checkout.error, "Failed to load the checkout.", ["NOT_FOUND"])}</p>
            <Button variant="secondary" size="sm" className="mt-2" onClick={() => void checkout.refetch()}>
              <RotateCw className="size-4" aria-hidden="true" />
              Try again
            </Button>
          </FormMessage>
        ) : (
          <div className="space-y-5">
            <Summary checkout={data} />
            {data.status === "expired" || data.status === "failed" ? (
              <div className="rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-stone-200">
                <CircleAlert className="mx-auto size-8 text-red-700" aria-hidden="true" />
                <p className="mt-3 font-semibold text-stone-900" role="alert">
                  {PM.checkoutFailed}
                </p>
                <Link to={data.return_to} className={buttonClasses({ variant: "secondary", size: "md" }) + " mt-5"}>
                  Go back
                </Link>
              </div>
            ) : waiting || data.status === "complete" ? (
              <div
                className="flex flex-col items-center gap-3 rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-stone-200"
                role="status"
              >
                <Spinner className="size-7 text-brand-700" />
                <p className="font-semibold text-stone-900">{PM.waiting}</p>
                <p className="text-sm text-stone-600">This takes a few seconds. You can keep this page open.</p>
              </div>
            ) : data.provider === "simulated" ? (
              <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-stone-200">
                <SimulatedCardForm
                  submitLabel={
                    data.product.trial_days > 0
                      ? "Start free trial"
                      : `Pay ${formatMoney(data.product.amount, data.product.currency)}`
                  }
                  error={
                    pay.error
                      ? errorMessage(pay.error, PM.checkoutFailed, ["NOT_FOUND", "CONFLICT", "BAD_REQUEST"])
                      : null
                  }
                  onCancel={() => navigate(data.return_to)}
                  onPaid={() => pay.mutateAsync()}
                />
              </div>
            ) : (
              // A Stripe checkout still open: its page is where the card is typed.
              <p className="text-sm text-stone-600">{PM.waiting}</p>
            )}
          </div>
        )}
      </div>
    </main>
  );
}

function Summary({ checkout: { product } }: { checkout: Checkout }) {
  return (
    <section
      aria-label="Order summary"
      className="flex items-center justify-between gap-4 rounded-2xl bg-stone-50 p-4 ring-1 ring-stone-200"
    >
      <div className="min-w-0">
        <p className="truncate font-semibold text-stone-900">{product.name}</p>
        {product.community && <p className="truncate text-sm text-stone-600">{product.community.name}</p>}
      </div>
      <p className="shrink-0 text-right font-bold text-stone-900 tabular-nums">{checkoutPriceText(product)}</p>
    </section>
  );
}
