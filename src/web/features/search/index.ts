export { SearchPage } from "./components/search-page";
export { searchQueryKeys } from "./api/search";
