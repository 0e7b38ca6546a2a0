import { Quote, TrendingUp, Users } from "lucide-react";
import { useEffect, useState } from "react";
import { cn } from "#web/lib/cn";
import type { Testimonial } from "../data";
import { useReducedMotion } from "../use-reduced-motion";
import { CarouselControls, CarouselDots } from "./carousel-controls";
import { Byline } from "./portrait";
import { useHold } from "./use-hold";

/** SPEC §9: testimonials on /signup rotate every 5 s. */
export const ROTATE_MS = 5000;

/**
 * /signup's testimonials: one at a time, the next every 5 s until the visitor uses a control
 * (then they are in charge), never by itself for visitors who prefer reduced motion. All of them
 * are laid in the same grid cell, so the card is as tall as the longest and never jumps.
 */
export function TestimonialRotator({ testimonials }: { testimonials: readonly Testimonial[] }) {
  const reducedMotion = useReducedMotion();
  const [index, setIndex] = useState(0);
  /** Null until the visitor touches a control. */
  const [manual, setManual] = useState<boolean | null>(null);
  const rotating = manual === null ? !reducedMotion : !manual;
  const { held, holdProps } = useHold();
  const count = testimonials.length;

  useEffect(() => {
    if (!rotating || held) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % count), ROTATE_MS);
    return () => window.clearInterval(timer);
  }, [rotating, held, count]);

  const go = (next: number) => {
    setManual(true);
    setIndex(((next % count) + count) % count);
  };

  return (
    <section
      aria-roledescription="carousel"
      aria-label="What creators say"
      className="relative rounded-3xl bg-white p-6 shadow-xl ring-1 shadow-stone-900/5 ring-stone-200 sm:p-8"
      {...holdProps}
    >
      <Quote
        className="absolute top-6 right-6 size-10 text-brand-100 sm:size-12"
        fill="currentColor"
        aria-hidden="true"
      />
      {/* Announced only when the visitor moves it, not on every automatic turn. */}
      <div className="grid" aria-live={rotating ? "off" : "polite"}>
        {testimonials.map((t, i) => {
          const current = i === index;
          return (
            <div
              key={t.id}
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${count}`}
              aria-hidden={!current || undefined}
              inert={!current}
              className={cn(
                "col-start-1 row-start-1 transition-opacity duration-500",
                current ? "opacity-100" : "opacity-0",
              )}
            >
              <figure className="flex h-full flex-col">
                <Byline person={t} size={56} portraitClassName="ring-4 ring-brand-50" />
                <blockquote className="mt-5 flex-1 text-lg leading-relaxed text-pretty text-stone-800 sm:text-xl">
                  “{t.quote}”
                </blockquote>
                <dl className="mt-6 grid grid-cols-2 gap-2 sm:gap-3">
                  {[
                    { label: "Revenue", value: t.revenue, icon: TrendingUp, tone: "bg-emerald-50 text-emerald-800" },
                    { label: "Community", value: t.members, icon: Users, tone: "bg-brand-50 text-brand-800" },
                  ].map(({ label, value, icon: Icon, tone }) => (
                    <div key={label} className={cn("rounded-2xl px-3 py-3 sm:px-4", tone)}>
                      <dt className="flex items-center gap-1.5 text-xs font-medium">
                        <Icon className="size-3.5" aria-hidden="true" />
                        {label}
                      </dt>
                      <dd className="mt-0.5 font-bold text-stone-900 tabular-nums sm:text-lg">{value}</dd>
                    </div>
                  ))}
                </dl>
              </figure>
            </div>
          );
        })}
      </div>
      <div className="mt-6 flex items-center justify-between gap-3 border-t border-stone-100 pt-5">
        <CarouselDots
          count={count}
          selected={index}
          onSelect={go}
          label={(i) => `Show testimonial ${i + 1} of ${count}`}
        />
        <CarouselControls
          what="testimonial"
          playing={rotating}
          onTogglePlay={() => setManual(rotating)}
          onPrev={() => go(index - 1)}
          onNext={() => go(index + 1)}
        />
      </div>
    </section>
  );
}
