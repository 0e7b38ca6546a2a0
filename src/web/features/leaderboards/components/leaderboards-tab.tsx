import { Heart, Trophy } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Avatar } from "#web/components/ui/avatar";
import { FormMessage } from "#web/components/ui/form-message";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { useMe } from "#web/lib/session";
import type { CommunityView } from "#web/features/communities";
import { type LeaderboardEntry, type LeaderboardPeriod, useLeaderboard } from "../api/get-leaderboard";
import { EmptyState } from "#web/components/empty-state";
import { LoadingRegion } from "#web/components/ui/load-states";
import { LevelAvatar } from "#web/features/levels";
import { LevelLadder, LevelProgress } from "./level-ladder";

const PERIODS: readonly { id: LeaderboardPeriod; label: string; phrase: string }[] = [
  { id: "7d", label: "7 days", phrase: "in the last 7 days" },
  { id: "30d", label: "30 days", phrase: "in the last 30 days" },
  { id: "all", label: "All time", phrase: "of all time" },
];

const likesText = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "like" : "likes"}`;
const pointsText = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "point" : "points"}`;

/** Gold, silver and bronze for the first three ranks. */
const medal: Record<number, string> = {
  1: "bg-amber-400 text-amber-950 ring-amber-500/40",
  2: "bg-stone-300 text-stone-800 ring-stone-400/40",
  3: "bg-orange-300 text-orange-950 ring-orange-400/40",
};

/** Members ranked by the likes their posts and comments received, over 7 days, 30 days or all time. */
export function LeaderboardsTab({ community: c }: { community: CommunityView }) {
  const [period, setPeriod] = useState<LeaderboardPeriod>("30d");
  const board = useLeaderboard(c.id, period);
  const me = useMe();
  const myId = me.data?.user?.id ?? null;
  const current = PERIODS.find((p) => p.id === period)!;
  const data = board.data;
  const viewer = data?.viewer ?? null;
  const viewerListed = viewer !== null && data?.items.some((e) => e.user_id === viewer.user_id);
  const viewerLevel = data?.viewer_level ?? c.viewer.level ?? null;
  const names = c.level_names;
  const rowProps = { names, allTime: period === "all" };

  return (
    <section aria-labelledby="leaderboard-heading" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="leaderboard-heading" className="text-lg font-bold tracking-tight text-stone-900">
            Leaderboard
          </h2>
          <p className="text-sm text-stone-600">
            Members ranked by the likes their posts and comments received (all time: their points).
          </p>
        </div>
        <div
          role="group"
          aria-label="Period"
          className="inline-flex rounded-xl bg-stone-200/70 p-1 text-sm font-semibold max-sm:w-full"
        >
          {PERIODS.map((p) => (
            <button
              key={p.id}
              type="button"
              aria-pressed={period === p.id}
              onClick={() => setPeriod(p.id)}
              className={cn(
                "flex-1 cursor-pointer rounded-lg px-3.5 py-1.5 whitespace-nowrap transition-colors",
                period === p.id ? "bg-white text-stone-900 shadow-sm" : "text-stone-600 hover:text-stone-900",
              )}
            >
              {p.label}
            </button>
          ))}
        </div>
      </div>

      {viewerLevel && <LevelProgress viewer={viewerLevel} names={names} thresholds={c.level_thresholds} />}
      {data && data.ladder.length > 0 && <LevelLadder ladder={data.ladder} viewerLevel={viewerLevel?.level ?? null} />}

      {board.isPending ? (
        <LoadingRegion label="Loading leaderboard" className="rounded-3xl bg-white p-2 shadow-sm ring-1 ring-stone-200">
          {[0, 1, 2, 3].map((n) => (
            <div key={n} className="flex items-center gap-3 px-3 py-3" aria-hidden="true">
              <div className="size-8 animate-pulse rounded-full bg-stone-200" />
              <div className="size-10 animate-pulse rounded-full bg-stone-200" />
              <div className="h-3 flex-1 animate-pulse rounded-full bg-stone-100" />
              <div className="h-3 w-16 animate-pulse rounded-full bg-stone-100" />
            </div>
          ))}
        </LoadingRegion>
      ) : board.isError ? (
        <FormMessage tone="error">{errorMessage(board.error, "Failed to load the leaderboard.")}</FormMessage>
      ) : data!.items.length === 0 ? (
        <EmptyState icon={Trophy} title="No likes yet in this period">
          <p>When members like posts and comments, the people who wrote them climb this board.</p>
        </EmptyState>
      ) : (
        <div
          className={cn("transition-opacity", board.isPlaceholderData && "opacity-60")}
          aria-busy={board.isPlaceholderData}
        >
          <ol
            aria-label={`Top members ${current.phrase}`}
            className="divide-y divide-stone-100 overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-stone-200"
          >
            {data!.items.map((entry) => (
              <li key={entry.user_id}>
                <Row entry={entry} isViewer={entry.user_id === myId} {...rowProps} />
              </li>
            ))}
          </ol>
          {viewer && !viewerListed && (
            <div className="mt-4">
              <h3 className="mb-2 px-1 text-xs font-semibold tracking-wide text-stone-600 uppercase">Your rank</h3>
              <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-stone-200">
                <Row entry={viewer} isViewer {...rowProps} />
              </div>
            </div>
          )}
          {!viewer && myId && c.viewer.role && (
            <p className="mt-4 flex items-center gap-2 px-1 text-sm text-stone-600">
              <Heart className="size-4 shrink-0 text-stone-400" aria-hidden="true" />
              You have no likes {current.phrase} yet: likes on your posts and comments count here.
            </p>
          )}
        </div>
      )}
    </section>
  );
}

function Row({
  entry,
  isViewer,
  names,
  allTime,
}: {
  entry: LeaderboardEntry;
  isViewer: boolean;
  names: readonly string[];
  allTime: boolean;
}) {
  const name = entry.full_name || entry.username || "Former member";
  return (
    <div
      className={cn(
        "flex items-center gap-2.5 px-3 py-3 sm:gap-4 sm:px-4",
        isViewer && "bg-brand-50 shadow-[inset_3px_0_0_var(--color-brand-600)]",
      )}
      aria-current={isViewer ? "true" : undefined}
    >
      <span
        className={cn(
          "flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold tabular-nums ring-1",
          medal[entry.rank] ?? "bg-stone-100 text-stone-700 ring-stone-200",
        )}
      >
        <span className="sr-only">Rank </span>
        {entry.rank}
      </span>
      <LevelAvatar level={entry.level} names={names}>
        <Avatar src={entry.avatar_url} name={name} className="max-sm:size-8 max-sm:text-xs" />
      </LevelAvatar>
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2">
          {entry.username ? (
            <Link
              to={`/u/${encodeURIComponent(entry.username)}`}
              className="truncate font-semibold text-stone-900 hover:underline"
            >
              {name}
            </Link>
          ) : (
            <span className="truncate font-semibold text-stone-900">{name}</span>
          )}
          {isViewer && (
            <span className="shrink-0 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">You</span>
          )}
        </p>
        {entry.username && <p className="truncate text-sm text-stone-600">@{entry.username}</p>}
      </div>
      <p className="inline-flex shrink-0 items-center gap-1.5 text-sm font-semibold text-stone-800 tabular-nums">
        <Heart className="size-4 fill-rose-500 text-rose-500 max-sm:hidden" aria-hidden="true" />
        {allTime ? pointsText(entry.points) : likesText(entry.points)}
      </p>
    </div>
  );
}
