import type { AppContext } from "#server/context";
import type { PaymentProvider } from "./provider";
import { createSimulatedProvider, type SimulatedProvider } from "./simulated-provider";

/*
 * One provider per app context, made on first use from config.payments: Stripe when both keys are
 * set, else the simulated one. The Stripe package is loaded only then.
 */
const providers = new WeakMap<AppContext, Promise<PaymentProvider>>();

export function paymentProvider(ctx: AppContext): Promise<PaymentProvider> {
  let p = providers.get(ctx);
  if (!p) {
    const settings = ctx.config.payments;
    p =
      settings.provider === "stripe"
        ? import("./stripe-provider").then((m) => m.createStripeProvider(settings))
        : Promise.resolve(createSimulatedProvider({ db: ctx.db, publicUrl: ctx.config.publicUrl }));
    providers.set(ctx, p);
  }
  return p;
}

export const isSimulated = (p: PaymentProvider): p is SimulatedProvider => p.name === "simulated";
