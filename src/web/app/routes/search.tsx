import { SearchPage } from "#web/features/search";

/** /search?q=… — search across every community the viewer may read (the header's search box). */
export function SearchRoute() {
  return <SearchPage />;
}
