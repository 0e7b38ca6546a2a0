/**
 * The fake Stripe server of the tests (src/server/test/fake-stripe.ts) as a process of its own, for
 * the Stripe-mode browser journey (e2e/stripe.spec.ts, started by playwright.config.ts) or by hand:
 *
 *   FAKE_STRIPE_PORT=3997 FAKE_STRIPE_WEBHOOK_SECRET=whsec_… \
 *   FAKE_STRIPE_WEBHOOK_URL=http://127.0.0.1:3998/api/payments/webhook node --import tsx scripts/fake-stripe.ts
 *
 * Hearth then runs with STRIPE_API_BASE=http://127.0.0.1:3997, any sk_test_ key and the same
 * STRIPE_WEBHOOK_SECRET. State is in memory and lost on exit; SIGTERM or SIGINT stops it.
 */
import { startFakeStripe } from "../src/server/test/fake-stripe";

const port = Number(process.env.FAKE_STRIPE_PORT ?? "3997");
const webhookSecret = process.env.FAKE_STRIPE_WEBHOOK_SECRET ?? "whsec_fake_stripe";
const webhookUrl = process.env.FAKE_STRIPE_WEBHOOK_URL || undefined;

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`FAKE_STRIPE_PORT must be a port number, not ${process.env.FAKE_STRIPE_PORT}`);
  process.exit(1);
}
if (!webhookSecret.startsWith("whsec_")) {
  console.error("FAKE_STRIPE_WEBHOOK_SECRET must start with whsec_");
  process.exit(1);
}

const fake = await startFakeStripe({ webhookSecret, webhookUrl, port });
console.log(`Fake Stripe listening on ${fake.url}${webhookUrl ? `, sending events to ${webhookUrl}` : ""}`);

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    // Events still being delivered are given a moment; a Hearth already gone fails them at once.
    const force = setTimeout(() => process.exit(0), 3000);
    force.unref();
    void fake.close().then(() => process.exit(0));
  });
}
