// Payments (issue 18, docs/payments.md): what other features may use.
export { paymentRoutes } from "./payments.routes";
export { pricingRoutes } from "./pricing.routes";
export { revenueRoutes } from "./revenue.routes";
export { payoutRoutes } from "./payouts.routes";
export { paymentJobHandlers } from "./events";
export { paymentProvider, isSimulated } from "./provider-registry";
export { stopRenewals } from "./subscriptions.service";
export { startCreatorPlanCheckout } from "./creator-plan";
export { buyCourseAtOnce } from "./checkout.service";
