import { Check, Clock } from "lucide-react";
import { toast } from "#web/lib/toast";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import type { FeedPost } from "../api/post-keys";
import { useVotePoll } from "../api/vote-poll";

type Poll = NonNullable<FeedPost["poll"]>;

/** "Ends in 3h" style text for an open poll (null: no time limit). */
export function pollEndsIn(expiresAt: string | null, now = Date.now()): string | null {
  if (!expiresAt) return null;
  const minutes = Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 60_000));
  if (minutes < 60) return minutes <= 1 ? "Ends in 1 minute" : `Ends in ${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return hours === 1 ? "Ends in 1 hour" : `Ends in ${hours} hours`;
  const days = Math.round(hours / 24);
  return `Ends in ${days} days`;
}

/** Whole percentages that add up to 100 (largest remainder), so the bars never sum to 99 or 101. */
export function percentages(votes: readonly number[]): number[] {
  const total = votes.reduce((a, b) => a + b, 0);
  if (total === 0) return votes.map(() => 0);
  const exact = votes.map((v) => (v / total) * 100);
  const floors = exact.map(Math.floor);
  let left = 100 - floors.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    floors[i] += 1;
    left -= 1;
  }
  return floors;
}

/**
 * A poll: one tap votes (once) while it is open and the viewer has not voted; afterwards, or once
 * it ended, every option shows its share with a bar, the viewer's choice marked.
 */
export function PostPoll({
  postId,
  poll,
  voteIndex,
  approved,
  onNeedSignIn,
  headingId,
}: {
  postId: string;
  poll: Poll;
  voteIndex: number | null;
  approved: boolean;
  /** Set when signed out: asks the viewer to sign in instead of voting. */
  onNeedSignIn?: () => void;
  /** The post text that asks the question, naming the group of options. */
  headingId?: string;
}) {
  const vote = useVotePoll(postId);
  const showResults = poll.closed || voteIndex !== null || poll.options.some((o) => o.votes !== null);
  const total = poll.total_votes ?? 0;
  const shares = percentages(poll.options.map((o) => o.votes ?? 0));
  const status = poll.closed ? "Poll ended" : (pollEndsIn(poll.expires_at) ?? "No time limit");

  const onVote = (index: number) => {
    if (onNeedSignIn) return onNeedSignIn();
    if (vote.isPending) return;
    vote.mutate(index, {
      onError: (error) =>
        toast.error(
          errorMessage(error, "Your vote could not be saved. Please try again.", ["CONFLICT", "BAD_REQUEST"]),
        ),
    });
  };

  return (
    <div className="mt-4 rounded-xl bg-stone-50 p-3 ring-1 ring-stone-200 sm:p-4">
      {showResults ? (
        <ul className="space-y-2" aria-label="Poll results">
          {poll.options.map((option, i) => {
            const mine = voteIndex === i;
            return (
              <li key={option.id} className="relative overflow-hidden rounded-lg bg-white ring-1 ring-stone-200">
                <div
                  aria-hidden="true"
                  className={cn(
                    "absolute inset-y-0 left-0 transition-[width] duration-500",
                    mine ? "bg-brand-100" : "bg-stone-200/70",
                  )}
                  style={{ width: `${shares[i]}%` }}
                />
                <div className="relative flex items-center justify-between gap-3 px-3 py-2.5 text-sm">
                  <span className={cn("flex min-w-0 items-center gap-2 text-stone-800", mine && "font-semibold")}>
                    {mine && <Check className="size-4 shrink-0 text-brand-700" aria-hidden="true" />}
                    <span className="[overflow-wrap:anywhere]">{option.text}</span>
                    {mine && <span className="sr-only">(your vote)</span>}
                  </span>
                  <span className="shrink-0 font-semibold text-stone-900 tabular-nums">
                    {shares[i]}%
                    <span className="sr-only">
                      , {option.votes ?? 0} {option.votes === 1 ? "vote" : "votes"}
                    </span>
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      ) : (
        <div role="group" aria-labelledby={headingId} aria-label={headingId ? undefined : "Poll options"}>
          <ul className="space-y-2">
            {poll.options.map((option, i) => (
              <li key={option.id}>
                <button
                  type="button"
                  onClick={() => onVote(i)}
                  disabled={!approved || (vote.isPending && vote.variables !== i)}
                  aria-busy={(vote.isPending && vote.variables === i) || undefined}
                  className="group flex w-full cursor-pointer items-center gap-3 rounded-lg bg-white px-3 py-2.5 text-left text-sm font-medium text-stone-800 ring-1 ring-stone-300 transition-colors hover:bg-brand-50 hover:ring-brand-300 disabled:cursor-not-allowed disabled:opacity-60"
                >
                  <span
                    aria-hidden="true"
                    className={cn(
                      "size-4 shrink-0 rounded-full ring-2 transition-colors",
                      vote.isPending && vote.variables === i
                        ? "bg-brand-600 ring-brand-600"
                        : "ring-stone-400 group-hover:ring-brand-600",
                    )}
                  />
                  <span className="[overflow-wrap:anywhere]">{option.text}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="mt-3 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-600">
        {showResults && (
          <>
            <span className="font-medium text-stone-700">
              {total} {total === 1 ? "vote" : "votes"}
            </span>
            <span aria-hidden="true">·</span>
          </>
        )}
        <span className="inline-flex items-center gap-1">
          <Clock className="size-3.5" aria-hidden="true" />
          {status}
        </span>
        {!showResults && approved && (
          <>
            <span aria-hidden="true">·</span>
            <span>Results show after you vote</span>
          </>
        )}
      </p>
    </div>
  );
}
