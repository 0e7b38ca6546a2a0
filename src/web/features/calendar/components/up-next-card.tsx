import { Link } from "react-router";
import { buttonClasses } from "#web/components/ui/button";
import { useUpNext } from "../api/list-events";
import { countdownText, whenText } from "../format";
import { LiveBadge, phaseOf, useNow, useViewerZone } from "./event-bits";

/**
 * The sidebar's 'Up next' (members): the next event with a live countdown, 'Live now' while it
 * runs, and 'Join' once its meeting link is shown. Nothing when no event is coming.
 */
export function UpNextCard({ communityId, communitySlug }: { communityId: string; communitySlug: string }) {
  const next = useUpNext(communityId, true);
  const zone = useViewerZone();
  const e = next.data;
  const starts = e ? Date.parse(e.starts_at) : 0;
  // Every second: the last hour counts down in mm:ss.
  const now = useNow(1000);
  if (!e || e.status === "cancelled") return null;
  const phase = phaseOf(e, now);
  if (phase === "past") return null;
  const when = whenText(e, zone);
  return (
    <section
      aria-labelledby="up-next-heading"
      className="mt-4 rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-200"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="up-next-heading" className="text-xs font-bold tracking-wider text-stone-600 uppercase">
          Up next
        </h2>
        {phase === "live" ? (
          <LiveBadge />
        ) : (
          <span className="text-xs font-semibold text-brand-800 tabular-nums" role="timer" aria-live="off">
            {countdownText(starts, now)}
          </span>
        )}
      </div>
      <p className="mt-2 font-bold text-stone-900">
        <Link
          to={`/community/${encodeURIComponent(communitySlug)}?tab=calendar&event=${encodeURIComponent(e.id)}`}
          className="hover:underline"
        >
          {e.title}
        </Link>
      </p>
      <p className="text-sm text-stone-700">
        <time dateTime={e.starts_at}>{when.shortDate}</time> · {when.time}
      </p>
      {when.eventZone && <p className="text-xs text-stone-600">{when.eventZone}</p>}
      {e.meeting_url && (
        <a
          href={e.meeting_url}
          target="_blank"
          rel="noopener noreferrer"
          className={`${buttonClasses({ size: "sm" })} mt-3 w-full`}
        >
          Join
        </a>
      )}
    </section>
  );
}
