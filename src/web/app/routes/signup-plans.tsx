import { PaymentPage } from "#web/features/funnel/components/payment-page";
import { PricingPage } from "#web/features/funnel/components/pricing-page";

/** /signup/pricing — monthly or annual. */
export function SignupPricingRoute() {
  return <PricingPage />;
}

/** /signup/payment — the payment modal over the plans. */
export function SignupPaymentRoute() {
  return <PaymentPage />;
}
