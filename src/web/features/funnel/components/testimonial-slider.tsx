import { Star } from "lucide-react";
import { TESTIMONIALS } from "../data";
import { CarouselControls, CarouselDots } from "./carousel-controls";
import { Byline } from "./portrait";
import { SPEED_800_MS, useCarousel } from "./use-carousel";

/** SPEC §9: autoplay 5000 ms, gap 32, 1 / 2 / 3 per view at 0 / 768 / 1024 px. */
const OPTIONS = { loop: true, align: "start", duration: SPEED_800_MS } as const;
const DELAY_MS = 5000;

/** /free-trial's testimonial slider. */
export function TestimonialSlider() {
  const { regionRef, viewportRef, selected, scrollTo, controls, holdProps } = useCarousel(OPTIONS, DELAY_MS);
  const count = TESTIMONIALS.length;
  return (
    <section className="bg-stone-50 py-16 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div
          ref={regionRef}
          role="region"
          aria-roledescription="carousel"
          aria-labelledby="testimonials-heading"
          {...holdProps}
        >
          <div className="flex flex-col gap-6 sm:flex-row sm:items-end sm:justify-between">
            <div className="max-w-2xl">
              <p className="text-sm font-semibold tracking-wide text-brand-800 uppercase">Loved by creators</p>
              <h2
                id="testimonials-heading"
                className="mt-2 text-3xl font-bold tracking-tight text-balance text-stone-900 sm:text-4xl"
              >
                Creators who made the move
              </h2>
            </div>
            <CarouselControls what="testimonial" {...controls} />
          </div>
          <div ref={viewportRef} className="relative mt-10 overflow-hidden">
            <div className="-ml-8 flex touch-pan-y">
              {TESTIMONIALS.map((t, i) => (
                <div
                  key={t.id}
                  role="group"
                  aria-roledescription="slide"
                  aria-label={`${i + 1} of ${count}`}
                  className="flex min-w-0 shrink-0 grow-0 basis-full pl-8 md:basis-1/2 lg:basis-1/3"
                >
                  <figure className="flex w-full flex-col rounded-3xl bg-white p-6 shadow-sm ring-1 ring-stone-200 sm:p-7">
                    <p className="flex gap-0.5 text-amber-500" role="img" aria-label="5 out of 5 stars">
                      {Array.from({ length: 5 }, (_, s) => (
                        <Star key={s} className="size-4" fill="currentColor" aria-hidden="true" />
                      ))}
                    </p>
                    <blockquote className="mt-4 flex-1 text-pretty text-stone-800">“{t.quote}”</blockquote>
                    <Byline person={t} size={48} className="mt-6" />
                    <dl className="mt-5 flex gap-2 border-t border-stone-100 pt-4 text-sm">
                      <div className="rounded-full bg-emerald-50 px-3 py-1 font-semibold text-emerald-800">
                        <dt className="sr-only">Revenue</dt>
                        <dd className="tabular-nums">{t.revenue}</dd>
                      </div>
                      <div className="rounded-full bg-brand-50 px-3 py-1 font-semibold text-brand-800">
                        <dt className="sr-only">Community</dt>
                        <dd className="tabular-nums">{t.members}</dd>
                      </div>
                    </dl>
                  </figure>
                </div>
              ))}
            </div>
          </div>
          <CarouselDots
            className="mt-8 justify-center"
            count={count}
            selected={selected}
            onSelect={scrollTo}
            label={(i) => `Show testimonial ${i + 1} of ${count}`}
          />
        </div>
      </div>
    </section>
  );
}
