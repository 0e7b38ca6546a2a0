import { CheckCircle2 } from "lucide-react";
import { lazyPart } from "#web/lib/lazy-part";
import { type FormEvent, Suspense, useId, useState } from "react";
import { FREE_TRIAL_PAGE_PRICE, TRIAL_DAYS } from "#shared/plans";
import { Button } from "#web/components/ui/button";
import { inputClasses } from "#web/components/ui/field";
import { OrDivider } from "#web/components/ui/or-divider";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { cn } from "#web/lib/cn";
import { useMe } from "#web/lib/session";
import { GoogleIcon, useGoogleSignIn } from "#web/features/auth";
import { PRICING_PATH, useStartTrial } from "#web/features/billing";
import { Glow } from "./portrait";

export const NO_CARD = "No credit card required, cancel anytime";
export const START_CARD_EMAIL_ID = "free-trial-email";

// Everything under the hero is its own chunk: the hero paints without waiting for the carousels.
const FreeTrialSections = lazyPart("FreeTrialSections", () => import("./free-trial-sections"));
const FunnelFooter = lazyPart("FunnelFooter", () =>
  import("./free-trial-sections").then((m) => ({ default: m.FunnelFooter })),
);

/** /free-trial: the creator landing page (SPEC §2). */
export function FreeTrialPage() {
  return (
    <>
      <main id="main">
        <title>Start your free trial · Hearth</title>
        <Hero />
        <Suspense fallback={<div className="min-h-[300vh]" aria-busy="true" />}>
          <FreeTrialSections />
        </Suspense>
      </main>
      <Suspense fallback={null}>
        <FunnelFooter />
      </Suspense>
    </>
  );
}

function Hero() {
  return (
    <section className="relative isolate overflow-hidden bg-stone-950">
      <Glow className="-z-10 bg-[radial-gradient(50rem_30rem_at_15%_-10%,rgba(234,88,12,0.35),transparent),radial-gradient(40rem_28rem_at_100%_100%,rgba(190,18,60,0.25),transparent)]" />
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 pt-12 pb-16 sm:px-6 sm:pt-16 lg:grid-cols-[1.15fr_1fr] lg:gap-16 lg:pt-24 lg:pb-28">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-semibold text-brand-200 ring-1 ring-white/15">
            {TRIAL_DAYS}-day free trial
          </p>
          <h1 className="mt-5 text-4xl font-extrabold tracking-tight text-balance text-white sm:text-5xl lg:text-[3.5rem] lg:leading-[1.05]">
            Turn your audience into a business <span className="text-brand-300">you own</span>
          </h1>
          <p className="mt-5 max-w-xl text-lg text-pretty text-stone-300">
            Courses, coaching, communities, newsletters, memberships and podcasts: one home, one login, and every member
            yours to keep.
          </p>
          <ul className="mt-8 grid max-w-lg gap-3 text-stone-200 sm:grid-cols-2">
            {["Launch in an afternoon", "0% transaction fee", "Your brand, your domain", "Members on every device"].map(
              (item) => (
                <li key={item} className="flex items-center gap-2.5">
                  <CheckCircle2 className="size-5 shrink-0 text-brand-300" aria-hidden="true" />
                  {item}
                </li>
              ),
            )}
          </ul>
        </div>
        <StartTrialCard />
      </div>
    </section>
  );
}

/** Continue with Google, or an email that opens the sign-up dialog (SPEC §2, §5, §7). */
function StartTrialCard() {
  const me = useMe();
  const signedIn = Boolean(me.data?.user);
  const startTrial = useStartTrial();
  const google = useGoogleSignIn();
  const [email, setEmail] = useState("");
  const headingId = useId();

  const onGoogle = async () => {
    if (signedIn) return startTrial();
    if (await google.start()) return;
    openAuthDialog({
      mode: "signup",
      redirect: PRICING_PATH,
      message: "Google sign-in is not set up on this Hearth yet: create your account with your email.",
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = email.trim();
    // The browser already refuses an empty required field; this covers spaces only.
    if (!value) return;
    startTrial(value);
  };

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-3xl bg-white p-6 shadow-2xl ring-1 shadow-black/30 ring-white/10 sm:p-8"
    >
      <h2 id={headingId} className="text-2xl font-bold tracking-tight text-stone-900">
        Start your free trial
      </h2>
      <p className="mt-1.5 text-stone-600">Set up your community in minutes. {TRIAL_DAYS} days on us.</p>
      <Button
        variant="secondary"
        size="lg"
        className="mt-6 w-full"
        onClick={() => void onGoogle()}
        loading={google.pending}
      >
        {!google.pending && <GoogleIcon className="size-5" />}
        Continue with Google
      </Button>
      <OrDivider />
      <form onSubmit={onSubmit} aria-label="Start with your email">
        <label htmlFor={START_CARD_EMAIL_ID} className="mb-1.5 block text-sm font-medium text-stone-800">
          Email address
        </label>
        <input
          id={START_CARD_EMAIL_ID}
          type="email"
          required
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className={cn(inputClasses, "h-12 text-base")}
        />
        <Button type="submit" size="lg" className="mt-3 w-full">
          Start Free Trial
        </Button>
      </form>
      <div className="mt-5 space-y-1 text-center text-sm">
        <p className="text-stone-700">
          <strong className="font-semibold text-stone-900">${FREE_TRIAL_PAGE_PRICE}/month</strong> plus applicable taxes
          after the trial
        </p>
        <p className="text-stone-600">{NO_CARD}</p>
      </div>
    </section>
  );
}
