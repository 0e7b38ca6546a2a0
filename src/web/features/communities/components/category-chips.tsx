import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { COMMUNITY_CATEGORIES } from "#shared/communities";
import { cn } from "#web/lib/cn";

const CHIPS = [
  { id: null, label: "All", path: "/" },
  ...COMMUNITY_CATEGORIES.map((c) => ({ id: c.id, label: c.label, path: `/category/${encodeURIComponent(c.id)}` })),
];

/**
 * The directory's category links (SPEC §2). A search in progress stays applied when the
 * category changes, and the page keeps its scroll position.
 */
export function CategoryChips({ selected, q }: { selected: string | null; q: string }) {
  const search = q ? `?${new URLSearchParams({ q })}` : "";
  // On a phone the row scrolls: bring the selected chip into view (sideways only, never the page).
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const row = list.current;
    const chip = row?.querySelector<HTMLElement>("[aria-current=page]");
    if (!row || !chip || row.scrollWidth <= row.clientWidth) return;
    row.scrollLeft = chip.offsetLeft - (row.clientWidth - chip.offsetWidth) / 2;
  }, [selected]);
  return (
    <nav aria-label="Categories" className="-mx-4 sm:mx-0">
      {/* One scrolling row on a phone, wrapped and centred on wider screens. */}
      <ul
        ref={list}
        className="relative flex gap-2 overflow-x-auto px-4 pb-1 [scrollbar-width:none] sm:flex-wrap sm:justify-center sm:overflow-visible sm:px-0 sm:pb-0"
      >
        {CHIPS.map((chip) => {
          const active = chip.id === selected;
          return (
            <li key={chip.label} className="shrink-0">
              <Link
                to={`${chip.path}${search}`}
                preventScrollReset
                aria-current={active ? "page" : undefined}
                className={cn(
                  "inline-flex h-9 items-center rounded-full px-4 text-sm font-semibold transition-colors",
                  active
                    ? "bg-stone-900 text-white shadow-sm"
                    : "bg-white text-stone-700 ring-1 ring-stone-200 ring-inset hover:bg-stone-100 hover:text-stone-900",
                )}
              >
                {chip.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
