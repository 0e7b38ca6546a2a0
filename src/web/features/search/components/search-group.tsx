import { useId, useState } from "react";
import { SEARCH_KIND_LABELS, SEARCH_LIMITS, SEARCH_MESSAGES } from "#shared/search";
import { Button } from "#web/components/ui/button";
import { errorMessage } from "#web/lib/api";
import { type SearchResponse, type SearchScope, useMoreResults } from "../api/search";
import type { SearchFilters } from "../search-params";
import { SearchResultItem } from "./search-result-item";

type Group = SearchResponse["groups"][number];

/** A group's count as shown: exact up to the cap, then "100+". */
export const countText = (count: number) =>
  count >= SEARCH_LIMITS.countCap
    ? `${SEARCH_LIMITS.countCap.toLocaleString("en-US")}+`
    : count.toLocaleString("en-US");

/** One kind's results under a heading with its count, and "Load more" while the cursor goes on. */
export function SearchGroup({
  group,
  scope,
  filters,
  showCommunity,
}: {
  group: Group;
  scope: SearchScope;
  filters: SearchFilters;
  showCommunity: boolean;
}) {
  const [asked, setAsked] = useState(false);
  const more = useMoreResults(scope, filters, group.kind, group.next_cursor, asked);
  const results = [...group.results, ...(more.data?.pages.flatMap((p) => p.groups.flatMap((g) => g.results)) ?? [])];
  const hasMore = asked ? more.hasNextPage || more.isPending : group.next_cursor !== null;
  const headingId = useId();
  const label = SEARCH_KIND_LABELS[group.kind];

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="mb-3 flex items-baseline gap-2 text-base font-bold text-stone-900">
        {label.many}
        <span className="rounded-full bg-stone-100 px-2 py-0.5 text-xs font-semibold text-stone-700">
          {countText(group.count)}
          <span className="sr-only"> {group.count === 1 ? "result" : "results"}</span>
        </span>
      </h3>
      <ul className="space-y-3">
        {results.map((result) => (
          <SearchResultItem key={`${result.kind}:${result.id}`} result={result} showCommunity={showCommunity} />
        ))}
      </ul>
      {more.isError && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {errorMessage(more.error, SEARCH_MESSAGES.loadMoreFailed)}
        </p>
      )}
      {hasMore && (
        <div className="mt-3 flex justify-center">
          <Button
            variant="secondary"
            size="sm"
            loading={more.isFetching}
            onClick={() => (asked ? void more.fetchNextPage() : setAsked(true))}
          >
            Load more {label.many.toLowerCase()}
          </Button>
        </div>
      )}
    </section>
  );
}
