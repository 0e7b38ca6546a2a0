import { levelName } from "#shared/levels";
import { cn } from "#web/lib/cn";
import { LevelBadge } from "#web/features/levels";

export type LadderRung = { level: number; name: string; threshold: number; members: number; share: number };
export type ViewerLevel = { points: number; level: number; next: { level: number; points: number } | null };

const pointsText = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "point" : "points"}`;

/** 'Level 3 (Helper) · 12 points to level 4', or the top level reached. */
export function progressText(viewer: ViewerLevel, names: readonly string[] | null | undefined): string {
  const name = levelName(names, viewer.level);
  const here = name === `Level ${viewer.level}` ? name : `Level ${viewer.level} (${name})`;
  return viewer.next
    ? `${here} · ${pointsText(viewer.next.points)} to level ${viewer.next.level}`
    : `${here} · the top level`;
}

/** How far the viewer is from their level's threshold to the next one (0..100). */
export function progressPercent(viewer: ViewerLevel, thresholds: readonly number[]): number {
  if (!viewer.next) return 100;
  const from = thresholds[viewer.level - 1] ?? 0;
  const to = viewer.points + viewer.next.points;
  if (to <= from) return 0;
  return Math.max(0, Math.min(100, Math.round(((viewer.points - from) / (to - from)) * 100)));
}

/** The viewer's level, points and the way to the next level, with a progress bar. */
export function LevelProgress({
  viewer,
  names,
  thresholds,
}: {
  viewer: ViewerLevel;
  names: readonly string[] | null | undefined;
  thresholds: readonly number[];
}) {
  const percent = progressPercent(viewer, thresholds);
  const text = progressText(viewer, names);
  return (
    <div className="flex items-center gap-4 rounded-3xl bg-white p-4 shadow-sm ring-1 ring-stone-200 sm:p-5">
      <span className="relative flex size-14 shrink-0 items-center justify-center rounded-full bg-brand-50 text-2xl font-bold text-brand-800 ring-1 ring-brand-200">
        {viewer.level}
        <span className="sr-only"> (your level)</span>
      </span>
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-stone-900">{text}</p>
        <p className="text-sm text-stone-600">{pointsText(viewer.points)} in this community</p>
        <div
          role="progressbar"
          aria-label="Progress to the next level"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={text}
          className="mt-2 h-2 overflow-hidden rounded-full bg-stone-200"
        >
          <div className="h-full rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
        </div>
      </div>
    </div>
  );
}

/** The nine levels with their names, the points each needs and the share of members at each. */
export function LevelLadder({ ladder, viewerLevel }: { ladder: readonly LadderRung[]; viewerLevel: number | null }) {
  const names = ladder.map((r) => r.name);
  return (
    <section
      aria-labelledby="ladder-heading"
      className="rounded-3xl bg-white p-4 shadow-sm ring-1 ring-stone-200 sm:p-5"
    >
      <h3 id="ladder-heading" className="text-sm font-semibold tracking-wide text-stone-600 uppercase">
        Levels
      </h3>
      <ol className="mt-3 grid gap-1.5 sm:grid-cols-3">
        {ladder.map((rung) => {
          const mine = rung.level === viewerLevel;
          return (
            <li
              key={rung.level}
              aria-current={mine ? "true" : undefined}
              data-level={rung.level}
              className={cn(
                "flex items-center gap-3 rounded-2xl px-3 py-2",
                mine ? "bg-brand-50 ring-1 ring-brand-300" : "bg-stone-50",
              )}
            >
              <span className="relative inline-flex size-6 shrink-0">
                <LevelBadge level={rung.level} names={names} size="lg" className="inset-0 size-6 text-xs ring-0" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-semibold text-stone-900">
                  {rung.name}
                  {mine && <span className="ml-1.5 font-normal text-brand-800">(you)</span>}
                </span>
                <span className="block text-xs text-stone-600">
                  {rung.level === 1 ? "From the start" : `${pointsText(rung.threshold)}`}
                </span>
              </span>
              <span className="shrink-0 text-sm font-semibold text-stone-800 tabular-nums">
                {rung.share}%<span className="sr-only"> of members</span>
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
