import { ArrowUp, Check } from "lucide-react";
import type { ReactNode } from "react";
import { FREE_TRIAL_PAGE_PRICE, TRIAL_DAYS } from "#shared/plans";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";
import { CREATOR_STORIES, FEATURES, KICKSTARTER_PLAN, STATS } from "../data";
import { useReducedMotion } from "../use-reduced-motion";
import { NO_CARD, START_CARD_EMAIL_ID } from "./free-trial-page";
import { Glow, Portrait } from "./portrait";
import { RevenueStreams } from "./revenue-streams";
import { TestimonialSlider } from "./testimonial-slider";

/** /free-trial below the hero: every other section of SPEC §2. */
export default function FreeTrialSections() {
  return (
    <>
      <RevenueStreams />
      <CreatorStories />
      <FeatureGrid />
      <TestimonialSlider />
      <StatsBand />
      <KickstarterPlan />
      <ClosingCallToAction />
    </>
  );
}

/** A section of the page under its heading (an eyebrow, a title, maybe a sentence), then its content. */
function HeadedSection({
  id,
  eyebrow,
  title,
  text,
  className,
  layout,
  children,
}: {
  id: string;
  eyebrow: string;
  title: string;
  text?: string;
  className: string;
  /** The classes of the box holding the heading and the content. */
  layout: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <div className={layout}>
        <div className="max-w-2xl">
          <p className="text-sm font-semibold tracking-wide text-brand-800 uppercase">{eyebrow}</p>
          <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-balance text-stone-900 sm:text-4xl">
            {title}
          </h2>
          {text && <p className="mt-4 text-lg text-pretty text-stone-700">{text}</p>}
        </div>
        {children}
      </div>
    </section>
  );
}

function CreatorStories() {
  return (
    <HeadedSection
      id="stories-heading"
      eyebrow="Creator stories"
      title="Built by creators like you"
      text="Teachers, coaches and writers who turned a following into a community that pays for itself."
      className="bg-stone-50 py-16 sm:py-24"
      layout="mx-auto max-w-6xl px-4 sm:px-6"
    >
      <ul className="mt-10 grid gap-6 md:grid-cols-3">
        {CREATOR_STORIES.map((story) => (
          <li key={story.id} className="overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-stone-200">
            <div className={cn("h-24 bg-gradient-to-br", story.gradientColor)} aria-hidden="true" />
            <figure className="px-6 pb-6">
              <Portrait src={story.image} size={72} className="-mt-9 ring-4 ring-white" />
              <figcaption className="mt-3">
                <p className="text-lg font-semibold text-stone-900">{story.name}</p>
                <ul className="mt-2 flex flex-wrap gap-2" aria-label={`About ${story.name}`}>
                  {story.badges.map((badge) => (
                    <li
                      key={badge}
                      className="rounded-full bg-stone-100 px-2.5 py-0.5 text-xs font-semibold text-stone-700"
                    >
                      {badge}
                    </li>
                  ))}
                </ul>
              </figcaption>
              <blockquote className="mt-4 text-pretty text-stone-700">“{story.quote}”</blockquote>
            </figure>
          </li>
        ))}
      </ul>
    </HeadedSection>
  );
}

function FeatureGrid() {
  return (
    <HeadedSection
      id="features-heading"
      eyebrow="Everything included"
      title="The whole toolkit, from the first member to the thousandth"
      className="bg-white py-16 sm:py-24"
      layout="mx-auto max-w-6xl px-4 sm:px-6"
    >
      <ul className="mt-12 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map(({ icon: Icon, title, description }) => (
          <li key={title} className="flex gap-4">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <div>
              <h3 className="font-semibold text-stone-900">{title}</h3>
              <p className="mt-1 text-stone-600">{description}</p>
            </div>
          </li>
        ))}
      </ul>
    </HeadedSection>
  );
}

function StatsBand() {
  return (
    <section aria-label="Hearth in numbers" className="bg-gradient-to-br from-brand-800 via-brand-700 to-rose-800">
      <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-14 text-center sm:px-6 lg:grid-cols-4">
        {STATS.map((stat) => (
          <div key={stat.label} className="flex flex-col-reverse">
            <dt className="mt-1 text-brand-100">{stat.label}</dt>
            <dd className="text-4xl font-extrabold tracking-tight text-white tabular-nums sm:text-5xl">{stat.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function KickstarterPlan() {
  return (
    <HeadedSection
      id="plan-heading"
      eyebrow="Simple pricing"
      title="One plan to start with everything"
      text={`Try every feature free for ${TRIAL_DAYS} days. Keep going on the Kickstarter plan, or leave with your members and content.`}
      className="bg-white py-16 sm:py-24"
      layout="mx-auto grid max-w-6xl items-center gap-10 px-4 sm:px-6 lg:grid-cols-2"
    >
      <div className="rounded-3xl bg-stone-950 p-6 text-white shadow-xl sm:p-8">
        <div className="flex items-baseline justify-between gap-4">
          <h3 className="text-xl font-bold">Kickstarter</h3>
          <p>
            <span className="text-4xl font-extrabold tabular-nums">${FREE_TRIAL_PAGE_PRICE}</span>
            <span className="text-stone-300">/month</span>
          </p>
        </div>
        <p className="mt-1 text-sm text-stone-300">Plus applicable taxes, after your {TRIAL_DAYS}-day free trial</p>
        <ul className="mt-6 grid gap-3 sm:grid-cols-2">
          {KICKSTARTER_PLAN.map((item) => (
            <li key={item} className="flex items-start gap-2.5 text-stone-100">
              <Check className="mt-0.5 size-4 shrink-0 text-brand-300" strokeWidth={3} aria-hidden="true" />
              {item}
            </li>
          ))}
        </ul>
        <p className="mt-6 border-t border-white/10 pt-5 text-sm text-stone-300">{NO_CARD}</p>
      </div>
    </HeadedSection>
  );
}

/** Takes the visitor back up to the start-trial card (SPEC §2). */
function ClosingCallToAction() {
  const reducedMotion = useReducedMotion();
  const toTop = () => {
    window.scrollTo({ top: 0, behavior: reducedMotion ? "auto" : "smooth" });
    document.getElementById(START_CARD_EMAIL_ID)?.focus({ preventScroll: true });
  };
  return (
    <section aria-labelledby="closing-heading" className="bg-stone-50 px-4 py-16 sm:px-6 sm:py-24">
      <div className="relative mx-auto max-w-4xl overflow-hidden rounded-3xl bg-white px-6 py-12 text-center shadow-sm ring-1 ring-stone-200 sm:px-12 sm:py-16">
        <Glow className="bg-[radial-gradient(30rem_14rem_at_50%_0%,var(--color-brand-100),transparent)]" />
        <div className="relative">
          <div className="flex justify-center -space-x-3" aria-hidden="true">
            {CREATOR_STORIES.map((s) => (
              <Portrait key={s.id} src={s.image} size={44} className="ring-2 ring-white" />
            ))}
          </div>
          <h2
            id="closing-heading"
            className="mt-6 text-3xl font-bold tracking-tight text-balance text-stone-900 sm:text-4xl"
          >
            Your community is one afternoon away
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-lg text-pretty text-stone-700">
            Join {STATS[0].value} creators building on their own terms. {NO_CARD}.
          </p>
          <Button size="lg" className="mt-8 h-14 px-7" onClick={toTop}>
            Start your free trial
            <ArrowUp className="size-5" aria-hidden="true" />
          </Button>
        </div>
      </div>
    </section>
  );
}

export { FunnelFooter } from "./funnel-footer";
