import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import { SEARCH_MESSAGES } from "#shared/search";
import { Button } from "#web/components/ui/button";
import { Bone, LoadingRegion } from "#web/components/ui/load-states";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { type SearchScope, useSearch } from "../api/search";
import { type SearchFilterKey, searchFiltersFrom } from "../search-params";
import { SearchFiltersBar } from "./search-filters";
import { countText, SearchGroup } from "./search-group";
import { SearchIcon } from "./search-icon";

const FILTER_KEYS: readonly SearchFilterKey[] = ["kind", "category", "author", "from", "to", "order"];

/**
 * What ?q= and its filters find: the filters, then one section per kind with its count and results,
 * each section paging on by its own cursor. The last results stay, dimmed, while the next load.
 * In a community (scope) with its categories; across communities each result names its community.
 */
export function SearchResults({
  scope,
  categories,
  clearable,
}: {
  scope: SearchScope;
  categories?: readonly { id: string; name: string; emoji: string }[];
  /** Offers to leave the search (the community page goes back to its tab). */
  clearable?: boolean;
}) {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => searchFiltersFrom(params), [params]);
  const search = useSearch(scope, filters);
  const setFilter = useCallback(
    (key: SearchFilterKey, value: string) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value && !(key === "order" && value === "relevance")) next.set(key, value);
          else next.delete(key);
          return next;
        },
        { preventScrollReset: true },
      ),
    [setParams],
  );
  const clear = (keys: readonly string[]) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const key of keys) next.delete(key);
        return next;
      },
      { preventScrollReset: true },
    );
  const filtered = FILTER_KEYS.some((key) => params.has(key));
  const groups = search.data?.groups.filter((g) => g.results.length > 0) ?? [];
  const total = groups.reduce((sum, g) => sum + g.count, 0);
  const q = filters.q.trim();

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <h2 className="min-w-0 text-lg font-bold tracking-tight break-words text-stone-900">
          {SEARCH_MESSAGES.resultsFor(q)}
        </h2>
        <div className="flex gap-2">
          {filtered && (
            <Button variant="ghost" size="sm" onClick={() => clear(FILTER_KEYS)}>
              Reset filters
            </Button>
          )}
          {clearable && (
            <Button variant="secondary" size="sm" onClick={() => clear(["q", ...FILTER_KEYS])}>
              {SEARCH_MESSAGES.clear}
            </Button>
          )}
        </div>
      </div>
      <SearchFiltersBar filters={filters} categories={categories} onChange={setFilter} />
      <p role="status" className="sr-only">
        {search.isSuccess && !search.isPlaceholderData
          ? total > 0
            ? `${countText(total)} ${total === 1 ? "result" : "results"}`
            : SEARCH_MESSAGES.noResults
          : ""}
      </p>
      {search.isPending ? (
        <LoadingRegion label={SEARCH_MESSAGES.searching} className="space-y-3">
          {[0, 1, 2].map((i) => (
            <div key={i} className="space-y-2 rounded-2xl bg-white p-4 ring-1 ring-stone-200">
              <Bone className="h-4 w-2/3 rounded bg-stone-200" />
              <Bone className="h-3 w-full rounded bg-stone-100" />
              <Bone className="h-3 w-1/3 rounded bg-stone-100" />
            </div>
          ))}
        </LoadingRegion>
      ) : search.isError && !search.data ? (
        <div role="alert" className="rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-stone-200">
          <p className="text-sm text-stone-700">{errorMessage(search.error, SEARCH_MESSAGES.failed)}</p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => void search.refetch()}>
            Try again
          </Button>
        </div>
      ) : groups.length === 0 ? (
        <div className="rounded-3xl border border-dashed border-stone-300 bg-white/70 px-6 py-12 text-center">
          <span className="mx-auto flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
            <SearchIcon className="size-6" />
          </span>
          <h3 className="mt-4 text-lg font-bold tracking-tight text-stone-900">{SEARCH_MESSAGES.noResults}</h3>
          <p className="mt-1 text-sm text-stone-600">{SEARCH_MESSAGES.noResultsHint}</p>
        </div>
      ) : (
        <div
          aria-busy={search.isFetching || undefined}
          className={cn("space-y-8 transition-opacity", search.isPlaceholderData && "opacity-60")}
        >
          {groups.map((group) => (
            <SearchGroup
              key={group.kind}
              group={group}
              scope={scope}
              filters={filters}
              showCommunity={scope === null}
            />
          ))}
        </div>
      )}
    </div>
  );
}
