import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { StartTrialInput } from "#shared/billing";
import { api, unwrap } from "#web/lib/api";
import { communityQueryKeys } from "#web/features/communities";
import { billingPlanKey } from "./billing-plan";

/** Only the plan and the request id: the body schema is strict, and card details never leave the form. */
export const startTrial = (body: StartTrialInput) => unwrap(api.POST("/api/billing/trial", { body }));

export function useStartTrialMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startTrial,
    onSuccess: (plan) => {
      queryClient.setQueryData(billingPlanKey, plan);
      // The directory and any community read before now do not know the new one yet.
      void queryClient.invalidateQueries({ queryKey: communityQueryKeys.all });
    },
  });
}
