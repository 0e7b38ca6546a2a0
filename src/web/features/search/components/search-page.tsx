import { SEARCH_MESSAGES } from "#shared/search";
import { useSearchParams } from "react-router";
import { SearchField } from "./search-field";
import { SearchResults } from "./search-results";

/** /search?q=…: every community the viewer may read (theirs and public ones), from the header's box. */
export function SearchPage() {
  const [params] = useSearchParams();
  const q = params.get("q")?.trim() ?? "";
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <title>{q ? `${q} · Search · Hearth` : "Search · Hearth"}</title>
      <h1 className="text-2xl font-bold tracking-tight text-stone-900">{SEARCH_MESSAGES.headerTitle}</h1>
      <p className="mt-1 text-sm text-stone-600">
        Posts, comments, courses, lessons and members of every community you can read.
      </p>
      <SearchField
        label={SEARCH_MESSAGES.headerTitle}
        placeholder={SEARCH_MESSAGES.headerPlaceholder}
        className="mt-5 mb-6"
      />
      {q && <SearchResults scope={null} />}
    </main>
  );
}
