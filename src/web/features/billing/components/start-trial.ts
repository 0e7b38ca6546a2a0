import { useNavigate } from "react-router";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { useMe } from "#web/lib/session";

export const PRICING_PATH = "/signup/pricing";

const SIGN_UP_NOTE = "Create your account to start your 14-day free trial.";

/**
 * The funnel's one next step: a signed-in visitor goes to the plans, anyone else gets the sign-up
 * dialog, which leads there after success (SPEC §2, §7). `email` prefills the dialog.
 */
export function useStartTrial() {
  const me = useMe();
  const navigate = useNavigate();
  return (email?: string) => {
    if (me.data?.user) navigate(PRICING_PATH);
    else openAuthDialog({ mode: "signup", redirect: PRICING_PATH, email, message: SIGN_UP_NOTE });
  };
}
