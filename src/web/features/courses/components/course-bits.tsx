import { GraduationCap, Lock } from "lucide-react";
import { cn } from "#web/lib/cn";
import type { CourseSummary } from "../api/courses";
import { courseLockText, coursePriceText } from "../format";
import { LazyImage } from "#web/features/communities";

/** A course's progress: a bar with its percentage, announced as a progress bar. */
export function CourseProgress({
  percent,
  label,
  className,
  detail,
}: {
  percent: number;
  /** The progress bar's accessible name, e.g. "Progress in Painting basics". */
  label: string;
  className?: string;
  /** Shown before the percentage, e.g. "3 of 5 lessons". */
  detail?: string;
}) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className={cn("space-y-1.5", className)}>
      <div className="flex items-baseline justify-between gap-3 text-xs font-medium text-stone-600">
        <span>{detail}</span>
        <span className="font-semibold text-stone-800 tabular-nums">{value}% complete</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        className="h-2 overflow-hidden rounded-full bg-stone-200"
      >
        <div
          className={cn(
            "h-full rounded-full transition-[width] duration-500",
            value >= 100 ? "bg-emerald-600" : "bg-brand-600",
          )}
          style={{ width: `${value}%` }}
        />
      </div>
    </div>
  );
}

export function DraftBadge({ className }: { className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-bold tracking-wide text-amber-900 uppercase ring-1 ring-amber-300",
        className,
      )}
    >
      Draft
    </span>
  );
}

/**
 * "Free", the price of a sold course, the tiers a course is on or the level that unlocks it; a lock
 * and what opens it when the viewer has no access yet.
 */
export function PriceBadge({
  course,
  locked,
  className,
}: {
  course: Pick<CourseSummary, "access" | "tier_names" | "price" | "currency" | "unlock_level" | "unlock_level_name">;
  locked?: boolean;
  className?: string;
}) {
  const free = course.access === "members";
  const lockText = locked ? courseLockText(course) : null;
  if (course.access === "level") {
    // The level is the badge itself: "Unlocks at level 3 (Insider)".
    return (
      <span
        className={cn(
          "inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-bold",
          locked ? "bg-stone-900 text-white" : "bg-brand-50 text-brand-900 ring-1 ring-brand-200",
          className,
        )}
      >
        {locked && <Lock className="size-3" aria-hidden="true" />}
        {courseLockText(course)}
      </span>
    );
  }
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-bold tabular-nums",
        free ? "bg-emerald-50 text-emerald-800 ring-1 ring-emerald-200" : "bg-stone-900 text-white",
        className,
      )}
    >
      {locked && <Lock className="size-3" aria-hidden="true" />}
      {course.access === "tiers" ? course.tier_names.join(" · ") : coursePriceText(course.price, course.currency)}
      {lockText && <span className="sr-only"> ({lockText})</span>}
    </span>
  );
}

/** Warm gradients for courses without a thumbnail, picked from the course id so each keeps its own. */
const PLACEHOLDERS = [
  "from-brand-500 via-brand-600 to-rose-700",
  "from-amber-400 via-orange-500 to-brand-700",
  "from-rose-500 via-brand-600 to-amber-600",
  "from-stone-700 via-stone-800 to-brand-900",
  "from-orange-400 via-rose-500 to-fuchsia-700",
];

function placeholderOf(id: string) {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return PLACEHOLDERS[hash % PLACEHOLDERS.length];
}

/** The course's picture, or a tasteful placeholder with its initial. */
export function CourseThumbnail({
  id,
  title,
  src,
  className,
}: {
  id: string;
  title: string;
  src: string | null;
  className?: string;
}) {
  if (src) {
    return (
      <LazyImage
        src={src}
        alt=""
        width={1280}
        height={720}
        className={cn("aspect-video w-full object-cover", className)}
      />
    );
  }
  const initial = title.trim().charAt(0).toUpperCase() || "C";
  return (
    <div
      aria-hidden="true"
      className={cn(
        "relative flex aspect-video w-full items-center justify-center overflow-hidden bg-gradient-to-br",
        placeholderOf(id),
        className,
      )}
    >
      <div className="absolute -top-10 -right-10 size-40 rounded-full bg-white/10" />
      <div className="absolute -bottom-16 -left-8 size-44 rounded-full bg-black/10" />
      <GraduationCap className="absolute right-4 bottom-3 size-10 text-white/25" />
      <span className="relative text-6xl font-black tracking-tight text-white/90 drop-shadow-sm">{initial}</span>
    </div>
  );
}
