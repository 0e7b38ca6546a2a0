import type { EmblaOptionsType } from "embla-carousel";
import Autoplay from "embla-carousel-autoplay";
import useEmblaCarousel from "embla-carousel-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useReducedMotion } from "../use-reduced-motion";
import { useHold } from "./use-hold";

/**
 * Embla's `duration` is not in milliseconds but a spring constant: 23 settles an 800 px move
 * within a pixel in about 800 ms (SPEC §9: slider speed 800 ms).
 */
export const SPEED_800_MS = 23;

/**
 * An Embla carousel that advances by itself every `delay` ms, except for visitors who prefer
 * reduced motion (then it starts paused and every move is a jump). The pointer over it or focus
 * inside it holds it (WCAG 2.2.2); the visitor can pause and play it, and dragging it pauses it.
 * The selected slide is state, for tabs and dots.
 */
export function useCarousel(options: EmblaOptionsType, delay: number) {
  const reducedMotion = useReducedMotion();
  // Made once: Embla re-initialises when it gets a new plugin.
  const plugins = useMemo(
    () => [Autoplay({ delay, playOnInit: false, stopOnInteraction: true, stopOnFocusIn: false })],
    [delay],
  );
  // Embla starts when the carousel first comes near the screen, and autoplay runs only while it is
  // on screen: nothing is measured on load, and no slide goes by unseen.
  const [region, setRegion] = useState<HTMLElement | null>(null);
  const [seen, setSeen] = useState(false);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!region) return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        setVisible(entry.isIntersecting);
        if (entry.isIntersecting) setSeen(true);
      },
      { rootMargin: "200px 0px" },
    );
    observer.observe(region);
    return () => observer.disconnect();
  }, [region]);
  const activeOptions = useMemo(() => ({ ...options, active: seen }), [options, seen]);
  const [viewportRef, api] = useEmblaCarousel(activeOptions, plugins);
  const [selected, setSelected] = useState(0);
  /** The visitor's own choice; until they make one, autoplay follows their motion preference. */
  const [wantsPlay, setWantsPlay] = useState<boolean | null>(null);
  const { held, holdProps } = useHold();
  const autoplayOn = wantsPlay ?? !reducedMotion;

  useEffect(() => {
    if (!api) return;
    const onSelect = () => setSelected(api.selectedScrollSnap());
    // A drag is the visitor taking over.
    const onPointerDown = () => setWantsPlay(false);
    onSelect();
    api.on("select", onSelect).on("reInit", onSelect).on("pointerDown", onPointerDown);
    return () => {
      api.off("select", onSelect).off("reInit", onSelect).off("pointerDown", onPointerDown);
    };
  }, [api]);

  const moving = autoplayOn && !held && visible;
  useEffect(() => {
    const autoplay = api?.plugins()?.autoplay;
    if (!autoplay) return;
    if (moving) autoplay.play(reducedMotion);
    else autoplay.stop();
  }, [api, moving, reducedMotion]);

  const scrollTo = useCallback(
    (index: number) => {
      api?.scrollTo(index, reducedMotion);
      // A chosen slide gets its full time on screen.
      api?.plugins()?.autoplay?.reset();
    },
    [api, reducedMotion],
  );
  const scrollPrev = useCallback(() => {
    api?.scrollPrev(reducedMotion);
    api?.plugins()?.autoplay?.reset();
  }, [api, reducedMotion]);
  const scrollNext = useCallback(() => {
    api?.scrollNext(reducedMotion);
    api?.plugins()?.autoplay?.reset();
  }, [api, reducedMotion]);

  return {
    /** For the element around the slides and their controls. */
    regionRef: setRegion,
    viewportRef,
    selected,
    /** Autoplay is on: the visitor did not pause it (hover and focus only hold it). */
    autoplayOn,
    scrollTo,
    /** Spread on CarouselControls. */
    controls: {
      playing: autoplayOn,
      onTogglePlay: () => setWantsPlay(!autoplayOn),
      onPrev: scrollPrev,
      onNext: scrollNext,
    },
    holdProps,
  };
}
