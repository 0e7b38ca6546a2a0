import { type KeyboardEvent, useRef } from "react";
import { cn } from "#web/lib/cn";
import { REVENUE_STREAMS } from "../data";
import { CarouselControls } from "./carousel-controls";
import { SPEED_800_MS, useCarousel } from "./use-carousel";

/** SPEC §9: autoplay 5000 ms, speed 800 ms, loop, 1 / 1.2 / 1.5 per view at 0 / 768 / 1024 px, gap 24. */
const OPTIONS = { loop: true, align: "start", duration: SPEED_800_MS } as const;
const DELAY_MS = 5000;

/**
 * The revenue-streams tab strip over an auto-advancing slider (SPEC §2): a tab selects its slide
 * and a slide change (autoplay, arrows, a drag) selects its tab. Built as the tabbed carousel of
 * the ARIA Authoring Practices: arrow keys move along the tabs.
 */
export function RevenueStreams() {
  const { regionRef, viewportRef, selected, scrollTo, controls, holdProps } = useCarousel(OPTIONS, DELAY_MS);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const count = REVENUE_STREAMS.length;

  const onTabKey = (event: KeyboardEvent, index: number) => {
    const next =
      event.key === "ArrowRight"
        ? (index + 1) % count
        : event.key === "ArrowLeft"
          ? (index - 1 + count) % count
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? count - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    scrollTo(next);
    tabs.current[next]?.focus();
  };

  return (
    <section aria-labelledby="streams-heading" className="overflow-hidden bg-white py-16 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold tracking-wide text-brand-800 uppercase">Every way you earn</p>
          <h2
            id="streams-heading"
            className="mt-2 text-3xl font-bold tracking-tight text-balance text-stone-900 sm:text-4xl"
          >
            One home for all of your revenue streams
          </h2>
          <p className="mt-4 text-lg text-pretty text-stone-700">
            Whatever your audience knows you for, bring it under one roof and let each part sell the next.
          </p>
        </div>
        <div
          ref={regionRef}
          role="region"
          aria-roledescription="carousel"
          aria-label="Revenue streams"
          className="mt-10"
          {...holdProps}
        >
          <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <div
              role="tablist"
              aria-label="Revenue streams"
              className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 [scrollbar-width:none] sm:mx-0 sm:flex-wrap sm:px-0"
            >
              {REVENUE_STREAMS.map((slide, i) => {
                const current = i === selected;
                return (
                  <button
                    key={slide.id}
                    ref={(el) => {
                      tabs.current[i] = el;
                    }}
                    type="button"
                    role="tab"
                    id={`stream-tab-${slide.id}`}
                    aria-selected={current}
                    aria-controls={`stream-slide-${slide.id}`}
                    tabIndex={current ? 0 : -1}
                    onClick={() => scrollTo(i)}
                    onKeyDown={(e) => onTabKey(e, i)}
                    className={cn(
                      "h-10 shrink-0 cursor-pointer rounded-full px-4 text-sm font-semibold transition-colors",
                      current
                        ? "bg-stone-900 text-white shadow-sm"
                        : "bg-stone-100 text-stone-700 hover:bg-stone-200 hover:text-stone-900",
                    )}
                  >
                    {slide.tab}
                  </button>
                );
              })}
            </div>
            <CarouselControls what="slide" {...controls} className="self-end sm:self-auto" />
          </div>
          <div ref={viewportRef} className="relative mt-6 overflow-hidden rounded-3xl">
            <div className="-ml-6 flex touch-pan-y">
              {REVENUE_STREAMS.map((slide, i) => (
                <div
                  key={slide.id}
                  id={`stream-slide-${slide.id}`}
                  role="tabpanel"
                  aria-roledescription="slide"
                  aria-labelledby={`stream-tab-${slide.id}`}
                  className="min-w-0 shrink-0 grow-0 basis-full pl-6 md:basis-[83.333%] lg:basis-[66.667%]"
                >
                  <StreamCard slide={slide} eager={i === 0} />
                </div>
              ))}
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}

function StreamCard({ slide, eager }: { slide: (typeof REVENUE_STREAMS)[number]; eager: boolean }) {
  return (
    <article className="relative isolate flex aspect-[4/5] flex-col justify-end overflow-hidden rounded-3xl bg-stone-900 p-6 sm:aspect-[16/10] sm:p-10">
      <img
        src={slide.backgroundImage}
        alt=""
        width={800}
        height={500}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        className="absolute inset-0 -z-10 size-full object-cover"
      />
      <div
        className={cn("absolute inset-0 -z-10 bg-gradient-to-t sm:bg-gradient-to-r", slide.overlayGradient)}
        aria-hidden="true"
      />
      {slide.floatingElements.map((f, i) => (
        <p
          key={f.label}
          className={cn(
            "absolute rounded-2xl bg-white/95 px-4 py-2.5 shadow-xl ring-1 shadow-stone-950/20 ring-white/60",
            i === 0 ? "top-6 left-6 sm:top-10 sm:left-10" : "right-10 bottom-10 max-lg:hidden",
          )}
        >
          <span className="block text-xs font-medium text-stone-600">{f.label}</span>
          <span className="block text-base font-bold text-stone-900 tabular-nums">{f.value}</span>
        </p>
      ))}
      <div className="max-w-sm xl:max-w-md">
        <h3 className="text-2xl font-bold tracking-tight text-balance text-white sm:text-3xl">{slide.title}</h3>
        <p className="mt-3 text-pretty text-white/90 sm:text-lg">{slide.description}</p>
      </div>
    </article>
  );
}
