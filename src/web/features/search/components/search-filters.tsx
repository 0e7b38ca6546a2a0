import { useId, useState } from "react";
import { SEARCH_KIND_LABELS, SEARCH_KINDS, SEARCH_ORDER_LABELS, SEARCH_ORDERS } from "#shared/search";
import type { SearchFilterKey, SearchFilters } from "../search-params";

const controlClasses =
  "h-9 w-full rounded-lg border border-stone-300 bg-white px-2.5 text-sm text-stone-900 hover:border-stone-400 focus:border-brand-700 focus:ring-3 focus:ring-brand-600/25 focus:outline-none";

function Labelled({ label, children }: { label: string; children: (id: string) => React.ReactNode }) {
  const id = useId();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="mb-1 block text-xs font-semibold text-stone-700">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

/**
 * Kind, category (in a community), author, date range and order. Choices apply at once, the author
 * when the field is left or Enter is pressed; each is a step in the history.
 */
export function SearchFiltersBar({
  filters,
  categories,
  onChange,
}: {
  filters: SearchFilters;
  categories?: readonly { id: string; name: string; emoji: string }[];
  onChange: (key: SearchFilterKey, value: string) => void;
}) {
  const [author, setAuthor] = useState(filters.author ?? "");
  const [shownAuthor, setShownAuthor] = useState(filters.author ?? "");
  if ((filters.author ?? "") !== shownAuthor) {
    setShownAuthor(filters.author ?? "");
    setAuthor(filters.author ?? "");
  }
  const commitAuthor = () => {
    const next = author.trim().replace(/^@/, "");
    if (next !== (filters.author ?? "")) onChange("author", next);
  };

  return (
    <form
      aria-label="Search filters"
      className="grid grid-cols-2 gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-stone-200 sm:grid-cols-3"
      onSubmit={(event) => {
        event.preventDefault();
        commitAuthor();
      }}
    >
      <Labelled label="Show">
        {(id) => (
          <select
            id={id}
            className={controlClasses}
            value={filters.kind ?? ""}
            onChange={(e) => onChange("kind", e.target.value)}
          >
            <option value="">Everything</option>
            {SEARCH_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {SEARCH_KIND_LABELS[kind].many}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      {categories && (
        <Labelled label="Category">
          {(id) => (
            <select
              id={id}
              className={controlClasses}
              value={filters.category ?? ""}
              onChange={(e) => onChange("category", e.target.value)}
            >
              <option value="">All categories</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.emoji ? `${c.emoji} ${c.name}` : c.name}
                </option>
              ))}
            </select>
          )}
        </Labelled>
      )}
      <Labelled label="Sort by">
        {(id) => (
          <select
            id={id}
            className={controlClasses}
            value={filters.order}
            onChange={(e) => onChange("order", e.target.value)}
          >
            {SEARCH_ORDERS.map((order) => (
              <option key={order} value={order}>
                {SEARCH_ORDER_LABELS[order]}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <Labelled label="Author">
        {(id) => (
          <input
            id={id}
            className={controlClasses}
            value={author}
            placeholder="username"
            maxLength={31}
            autoComplete="off"
            onChange={(e) => setAuthor(e.target.value)}
            onBlur={commitAuthor}
          />
        )}
      </Labelled>
      {(["from", "to"] as const).map((key) => (
        <Labelled key={key} label={key === "from" ? "From" : "To"}>
          {(id) => (
            <input
              id={id}
              type="date"
              className={controlClasses}
              value={filters[key] ?? ""}
              min={key === "to" ? filters.from : undefined}
              max={key === "from" ? filters.to : undefined}
              onChange={(e) => onChange(key, e.target.value)}
            />
          )}
        </Labelled>
      ))}
    </form>
  );
}
