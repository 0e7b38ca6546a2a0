export { SavedPage } from "./components/saved-page";
export { savedQueryKeys, savedQueryOptions, useSaved, type SavedPost } from "./api/get-saved";
