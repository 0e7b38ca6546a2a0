import { PaymentPage } from "../../features/funnel/components/payment-page";
import { PricingPage } from "../../features/funnel/components/pricing-page";

/** /signup/pricing — monthly or annual. */
export function SignupPricingRoute() {
  return <PricingPage />;
}

/** /signup/payment — the payment modal over the plans. */
export function SignupPaymentRoute() {
  return <PaymentPage />;
}
