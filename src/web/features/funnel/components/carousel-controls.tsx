import { ChevronLeft, ChevronRight, Pause, Play } from "lucide-react";
import { cn } from "#web/lib/cn";

const round = cn(
  "inline-flex size-10 shrink-0 cursor-pointer items-center justify-center rounded-full transition-colors",
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700",
);

const tones = {
  light: "bg-white text-stone-800 shadow-sm ring-1 ring-stone-300 hover:bg-stone-50 active:bg-stone-100",
  dark: "bg-white/10 text-white ring-1 ring-white/25 hover:bg-white/20 active:bg-white/25",
};

type Tone = keyof typeof tones;

/** Previous, pause or play, and next: the controls every carousel of the funnel has. */
export function CarouselControls({
  what,
  playing,
  onTogglePlay,
  onPrev,
  onNext,
  tone = "light",
  className,
}: {
  /** What one slide is, for the buttons' names: "testimonial", "slide". */
  what: string;
  playing: boolean;
  onTogglePlay: () => void;
  onPrev: () => void;
  onNext: () => void;
  tone?: Tone;
  className?: string;
}) {
  return (
    <div className={cn("flex items-center gap-2", className)}>
      <button type="button" className={cn(round, tones[tone])} onClick={onPrev} aria-label={`Previous ${what}`}>
        <ChevronLeft className="size-5" aria-hidden="true" />
      </button>
      <button
        type="button"
        className={cn(round, tones[tone])}
        onClick={onTogglePlay}
        aria-label={playing ? `Pause ${what}s` : `Play ${what}s`}
      >
        {playing ? (
          <Pause className="size-4" fill="currentColor" aria-hidden="true" />
        ) : (
          <Play className="size-4 translate-x-px" fill="currentColor" aria-hidden="true" />
        )}
      </button>
      <button type="button" className={cn(round, tones[tone])} onClick={onNext} aria-label={`Next ${what}`}>
        <ChevronRight className="size-5" aria-hidden="true" />
      </button>
    </div>
  );
}

/** One dot per slide; the current one is wider. */
export function CarouselDots({
  count,
  selected,
  onSelect,
  label,
  tone = "light",
  className,
}: {
  count: number;
  selected: number;
  onSelect: (index: number) => void;
  /** The name of dot `i` (0-based). */
  label: (index: number) => string;
  tone?: Tone;
  className?: string;
}) {
  return (
    <div className={cn("flex items-center gap-1", className)}>
      {Array.from({ length: count }, (_, i) => (
        <button
          key={i}
          type="button"
          onClick={() => onSelect(i)}
          aria-label={label(i)}
          aria-current={i === selected || undefined}
          // A 24 px target around a small dot.
          className="group flex size-6 cursor-pointer items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-brand-700"
        >
          <span
            className={cn(
              "block h-2 rounded-full transition-all duration-300",
              i === selected
                ? cn("w-5", tone === "light" ? "bg-brand-700" : "bg-white")
                : cn(
                    "w-2",
                    tone === "light" ? "bg-stone-300 group-hover:bg-stone-400" : "bg-white/40 group-hover:bg-white/60",
                  ),
            )}
          />
        </button>
      ))}
    </div>
  );
}
