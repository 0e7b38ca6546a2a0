/**
 * The fake Stripe server of the tests (src/server/test/fake-stripe.ts) in its own process, so the
 * Hearth server's calls to "Stripe" and the harness's load do not share an event loop. Events are
 * only kept (GET /test/events); the harness signs and delivers them. BENCH_STRIPE_WEBHOOK_SECRET
 * is the secret they are signed with.
 */
import { startFakeStripe } from "../../src/server/test/fake-stripe";
import { announceReady, answerParent, onParentStop } from "./protocol";

const fake = await startFakeStripe({ webhookSecret: process.env.BENCH_STRIPE_WEBHOOK_SECRET ?? "whsec_bench" });
onParentStop(() => fake.close());
answerParent({ "events:count": () => fake.events.length });
announceReady(fake.url);
