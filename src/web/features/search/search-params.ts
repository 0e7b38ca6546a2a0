import { SEARCH_KINDS, SEARCH_ORDERS, type SearchKind, type SearchOrder } from "#shared/search";

/** What a search asks for, as it lives in the address (?q=…&kind=…&order=…). */
export type SearchFilters = {
  q: string;
  kind?: SearchKind;
  category?: string;
  author?: string;
  from?: string;
  to?: string;
  order: SearchOrder;
};

export type SearchFilterKey = Exclude<keyof SearchFilters, "q">;

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | undefined =>
  list.find((item) => item === value);

/** The filters in an address; unknown kinds and orders are dropped, never sent. */
export function searchFiltersFrom(params: URLSearchParams): SearchFilters {
  const text = (key: string) => params.get(key)?.trim() || undefined;
  return {
    q: params.get("q") ?? "",
    kind: oneOf(SEARCH_KINDS, params.get("kind")),
    category: text("category"),
    author: text("author")?.replace(/^@/, ""),
    from: text("from"),
    to: text("to"),
    order: oneOf(SEARCH_ORDERS, params.get("order")) ?? "relevance",
  };
}

/** The query string the API takes for these filters (empty ones left out). */
export function searchQueryOf(filters: SearchFilters, cursor?: string | null): SearchFilters & { cursor?: string } {
  const query = Object.fromEntries(Object.entries(filters).filter(([, value]) => value)) as SearchFilters;
  return cursor ? { ...query, cursor } : query;
}
