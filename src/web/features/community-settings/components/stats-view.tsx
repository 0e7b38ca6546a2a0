import { RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { type CommunityStats, useCommunityStats } from "#web/features/communities";

const dayFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
/** Days come as YYYY-MM-DD (UTC). */
export const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

/** Loads the figures once for both tabs that show them; loading and failure look the same in each. */
export function StatsGate({
  communityId,
  children,
  skeleton,
}: {
  communityId: string;
  children: (stats: CommunityStats) => ReactNode;
  skeleton: ReactNode;
}) {
  const stats = useCommunityStats(communityId);
  if (stats.isPending) return <div aria-busy="true">{skeleton}</div>;
  if (stats.isError) {
    return (
      <FormMessage tone="error">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span>Could not load the figures. Please try again.</span>
          <Button variant="secondary" size="sm" onClick={() => void stats.refetch()} loading={stats.isFetching}>
            {!stats.isFetching && <RefreshCw className="size-4" aria-hidden="true" />}
            Try again
          </Button>
        </div>
      </FormMessage>
    );
  }
  return <>{children(stats.data)}</>;
}

/** New members per day over 30 days, as bars (plain CSS); the figures are in the label for screen readers. */
export function JoinsChart({ days }: { days: CommunityStats["joins_by_day"] }) {
  const max = Math.max(1, ...days.map((d) => d.count));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const busiest = days.reduce<CommunityStats["joins_by_day"][number] | null>(
    (best, d) => (d.count > 0 && (!best || d.count > best.count) ? d : best),
    null,
  );
  const label =
    `New members per day over the last 30 days: ${total} in total` +
    (busiest ? `, most on ${formatDay(busiest.day)} with ${busiest.count}.` : ".");
  return (
    <figure className="rounded-xl border border-stone-200 bg-white p-4 shadow-xs sm:p-5">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-sm font-semibold text-stone-900">New members, last 30 days</span>
        <span className="text-sm text-stone-600">
          <strong className="font-semibold text-stone-900 tabular-nums">{total}</strong> joined
        </span>
      </figcaption>
      <div className="relative mt-5 pl-7">
        <div className="pointer-events-none absolute top-0 right-0 left-7 border-t border-dashed border-stone-200" />
        <span
          className="absolute -top-2 left-0 w-5 text-right text-xs leading-4 text-stone-500 tabular-nums"
          aria-hidden="true"
        >
          {max}
        </span>
        <span
          className="absolute bottom-0 left-0 w-5 translate-y-1/2 text-right text-xs leading-4 text-stone-500"
          aria-hidden="true"
        >
          0
        </span>
        <div role="img" aria-label={label} className="flex h-28 items-end gap-[2px] border-b border-stone-300 sm:gap-1">
          {days.map((d) => (
            <div
              key={d.day}
              title={`${formatDay(d.day)}: ${d.count}`}
              className={
                d.count > 0
                  ? "min-h-1 flex-1 rounded-t-[3px] bg-gradient-to-t from-brand-700 to-brand-500"
                  : "h-[3px] flex-1 rounded-t-[2px] bg-stone-200"
              }
              style={d.count > 0 ? { height: `${(d.count / max) * 100}%` } : undefined}
            />
          ))}
        </div>
      </div>
      {days.length > 0 && (
        <div className="mt-1.5 flex justify-between pl-7 text-xs text-stone-500" aria-hidden="true">
          <span>{formatDay(days[0].day)}</span>
          <span>Today</span>
        </div>
      )}
    </figure>
  );
}
