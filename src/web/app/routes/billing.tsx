import { useParams } from "react-router";
import { BillingPage, CheckoutPage } from "#web/features/billing";

/** /billing — the signed-in user's subscriptions, purchases and payments; /billing/checkout/:checkoutId — paying. */
export function BillingRoute() {
  const rest = useParams()["*"] ?? "";
  const checkoutId = /^checkout\/([^/]+)$/.exec(rest)?.[1];
  return checkoutId ? <CheckoutPage key={checkoutId} checkoutId={checkoutId} /> : <BillingPage />;
}
