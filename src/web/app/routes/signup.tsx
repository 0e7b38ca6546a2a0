// Straight from the page's module, not the feature index: the marketing page must not carry the
// payment modal's dependencies (dialog, card form) or the landing page's carousels.
import { SignupPage } from "#web/features/funnel/components/signup-page";

/** /signup — the creator marketing page. */
export function SignupRoute() {
  return <SignupPage />;
}
