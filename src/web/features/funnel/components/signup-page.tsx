import { ArrowRight, CheckCircle2, Star } from "lucide-react";
import { PLANS, TRIAL_DAYS } from "#shared/plans";
import { Button } from "#web/components/ui/button";
import { SIGNUP_FEATURES, SIGNUP_TESTIMONIALS, STATS } from "../data";
import { Glow, Portrait } from "./portrait";
import { useStartTrial } from "#web/features/billing";
import { TestimonialRotator } from "./testimonial-rotator";

export const GET_STARTED = "Get Started - 14 Day Free Trial";

const STEPS = [
  { title: "Pick a plan", text: `Monthly or annual. Nothing is due for the first ${TRIAL_DAYS} days.` },
  { title: "Set up your space", text: "A checklist takes you from a name to a cover, a description and a first post." },
  { title: "Invite your people", text: "Share your link, welcome members and start earning from month one." },
];

/** /signup: the creator marketing page (SPEC §2). */
export function SignupPage() {
  const startTrial = useStartTrial();
  const lowest = Math.min(PLANS.monthly.pricePerMonth, PLANS.annual.pricePerMonth);
  return (
    <main id="main">
      <title>Start your community · Hearth</title>
      <section className="relative overflow-hidden border-b border-stone-200/70">
        <Glow className="bg-[radial-gradient(48rem_28rem_at_85%_0%,var(--color-brand-100),transparent),radial-gradient(40rem_24rem_at_0%_100%,#fef3c7,transparent)]" />
        <div className="relative mx-auto grid max-w-6xl items-center gap-10 px-4 pt-10 pb-14 sm:px-6 sm:pt-16 lg:grid-cols-[1.1fr_1fr] lg:gap-14 lg:pt-20 lg:pb-24">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-white/80 px-3 py-1 text-sm font-semibold text-brand-800 shadow-sm ring-1 ring-brand-200">
              <span className="size-1.5 rounded-full bg-brand-600" aria-hidden="true" />
              For creators, coaches and educators
            </p>
            <h1 className="mt-5 text-4xl font-extrabold tracking-tight text-balance text-stone-900 sm:text-5xl lg:text-[3.5rem] lg:leading-[1.05]">
              Build a community your audience <span className="text-brand-700">will pay to join</span>
            </h1>
            <p className="mt-5 max-w-xl text-lg text-pretty text-stone-700">
              Courses, conversations and memberships in one place with your name on the door. Launch in an afternoon;
              your members will stay for years.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-center">
              <Button
                size="lg"
                className="h-auto min-h-14 px-5 py-3 text-base whitespace-normal shadow-lg shadow-brand-700/20 max-sm:w-full sm:px-7"
                onClick={() => startTrial()}
              >
                {GET_STARTED}
                <ArrowRight className="size-5 shrink-0" aria-hidden="true" />
              </Button>
            </div>
            <p className="mt-3 text-sm text-stone-600">From ${lowest}/month after your trial · Cancel anytime</p>
            <div className="mt-8 flex items-center gap-4">
              <div className="flex -space-x-3" aria-hidden="true">
                {SIGNUP_TESTIMONIALS.map((t) => (
                  <Portrait key={t.id} src={t.image} size={40} className="ring-2 ring-white" />
                ))}
              </div>
              <div className="text-sm">
                <p className="flex items-center gap-0.5 text-amber-500" aria-hidden="true">
                  {Array.from({ length: 5 }, (_, i) => (
                    <Star key={i} className="size-4" fill="currentColor" />
                  ))}
                </p>
                <p className="mt-0.5 text-stone-700">
                  <strong className="font-semibold text-stone-900">{STATS[3].value}</strong> from{" "}
                  <strong className="font-semibold text-stone-900">{STATS[0].value}</strong> creators
                </p>
              </div>
            </div>
          </div>
          <TestimonialRotator testimonials={SIGNUP_TESTIMONIALS} />
        </div>
      </section>

      <section aria-labelledby="signup-features" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:py-20">
        <h2 id="signup-features" className="text-3xl font-bold tracking-tight text-balance text-stone-900">
          Everything your community needs, nothing it doesn't
        </h2>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {SIGNUP_FEATURES.map(({ icon: Icon, title, description }) => (
            <li key={title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-stone-200">
              <span className="flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <h3 className="mt-4 font-semibold text-stone-900">{title}</h3>
              <p className="mt-1.5 text-stone-600">{description}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="signup-steps" className="border-y border-stone-200 bg-white">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:py-20">
          <h2 id="signup-steps" className="text-3xl font-bold tracking-tight text-stone-900">
            Live in three steps
          </h2>
          <ol className="mt-10 grid gap-8 md:grid-cols-3">
            {STEPS.map((step, i) => (
              <li key={step.title} className="flex gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-stone-900 font-bold text-white">
                  {i + 1}
                </span>
                <div>
                  <h3 className="font-semibold text-stone-900">{step.title}</h3>
                  <p className="mt-1 text-stone-600">{step.text}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="signup-closing" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:py-20">
        <div className="relative overflow-hidden rounded-3xl bg-stone-900 px-6 py-12 text-center sm:px-12">
          <Glow className="bg-[radial-gradient(36rem_18rem_at_50%_-10%,rgba(234,88,12,0.45),transparent)]" />
          <div className="relative">
            <h2 id="signup-closing" className="text-3xl font-bold tracking-tight text-balance text-white">
              Your community could be live today
            </h2>
            <ul className="mx-auto mt-6 flex max-w-2xl flex-wrap justify-center gap-x-6 gap-y-2 text-stone-200">
              {[`${TRIAL_DAYS} days free`, "Cancel anytime", "Your brand, your members"].map((item) => (
                <li key={item} className="flex items-center gap-2">
                  <CheckCircle2 className="size-4 text-brand-300" aria-hidden="true" />
                  {item}
                </li>
              ))}
            </ul>
            <Button
              size="lg"
              className="mt-8 h-auto min-h-14 px-5 py-3 whitespace-normal max-sm:w-full sm:px-7"
              onClick={() => startTrial()}
            >
              {GET_STARTED}
              <ArrowRight className="size-5 shrink-0" aria-hidden="true" />
            </Button>
          </div>
        </div>
      </section>
    </main>
  );
}
