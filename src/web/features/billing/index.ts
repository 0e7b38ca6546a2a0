export { PRICING_PATH, useStartTrial } from "./components/start-trial";
export { billingPlanKey, billingPlanQueryOptions, useBillingPlan, type BillingPlan } from "./api/billing-plan";
export { startTrial, useStartTrialMutation } from "./api/start-trial";
export { SimulatedCardForm, type SimulatedCardFormProps } from "./components/simulated-card-form";
