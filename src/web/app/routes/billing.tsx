import { useParams } from "react-router";
import { BillingPage, CheckoutPage } from "#web/features/billing";

/** /billing — the signed-in user's subscriptions, purchases and payments. */
export function BillingRoute() {
  return <BillingPage />;
}

/** /billing/checkout/:checkoutId — paying for a plan or a course, then waiting for the confirmation. */
export function CheckoutRoute() {
  const { checkoutId = "" } = useParams();
  return <CheckoutPage key={checkoutId} checkoutId={checkoutId} />;
}
