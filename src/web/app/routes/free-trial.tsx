import { FreeTrialPage } from "#web/features/funnel/components/free-trial-page";

/** /free-trial — the creator landing page; it has its own footer. */
export function FreeTrialRoute() {
  return <FreeTrialPage />;
}

export const handle = { ownFooter: true };
