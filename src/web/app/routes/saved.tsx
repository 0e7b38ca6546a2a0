import { SavedPage } from "#web/features/saved";

/** /saved — the signed-in user's saved posts. */
export function SavedRoute() {
  return <SavedPage />;
}
