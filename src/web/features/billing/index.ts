export { PRICING_PATH, useStartTrial } from "./components/start-trial";
export { billingPlanKey, billingPlanQueryOptions, useBillingPlan, type BillingPlan } from "./api/billing-plan";
export { startTrial, useStartTrialMutation } from "./api/start-trial";
export { SimulatedCardForm, type SimulatedCardFormProps } from "./components/simulated-card-form";
export { BillingPage } from "./components/billing-page";
export { CheckoutPage } from "./components/checkout-page";
export {
  goToCheckout,
  useStartCheckout,
  usePricing,
  useSavePricing,
  billingKeys,
  type Pricing,
  type Tier,
} from "./api/billing";
