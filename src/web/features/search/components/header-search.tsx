import { Link, useNavigate } from "react-router";
import { SEARCH_LIMITS, SEARCH_MESSAGES } from "#shared/search";
import { SearchIcon } from "./search-icon";

/**
 * The header's search across every community the viewer may read: a form that opens /search?q=…,
 * where the results load; a narrow screen has a link to that page instead. The directory's
 * keyword search is separate and stays as it is.
 */
export function HeaderSearch() {
  const navigate = useNavigate();
  return (
    <div className="ml-auto flex items-center">
      <form
        role="search"
        aria-label={SEARCH_MESSAGES.headerTitle}
        action="/search"
        className="relative hidden w-56 md:block lg:w-72"
        onSubmit={(event) => {
          event.preventDefault();
          const q = String(new FormData(event.currentTarget).get("q") ?? "").trim();
          navigate(q ? `/search?q=${encodeURIComponent(q)}` : "/search");
        }}
      >
        <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-500" />
        <input
          type="search"
          name="q"
          aria-label={SEARCH_MESSAGES.headerTitle}
          placeholder={SEARCH_MESSAGES.headerPlaceholder}
          maxLength={SEARCH_LIMITS.queryAcceptMax}
          autoComplete="off"
          className="h-10 w-full rounded-xl border border-stone-200 bg-stone-50 pr-3 pl-9 text-sm text-stone-900 placeholder:text-stone-500 hover:border-stone-300 focus:border-brand-700 focus:bg-white focus:ring-3 focus:ring-brand-600/25 focus:outline-none"
        />
      </form>
      <Link
        to="/search"
        aria-label={SEARCH_MESSAGES.headerTitle}
        className="flex size-10 items-center justify-center rounded-xl text-stone-700 hover:bg-stone-100 md:hidden"
      >
        <SearchIcon className="size-5" />
      </Link>
    </div>
  );
}
