import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "#web/features/communities";

export type Payouts =
  paths["/api/communities/{communityId}/payouts"]["get"]["responses"][200]["content"]["application/json"];

const payoutsKey = (communityId: string) => communityQueryKeys.part(communityId, "payouts");

/** Where the community's payments go, and the connected Stripe account's status (owner). */
export function usePayouts(communityId: string) {
  return useQuery({
    queryKey: payoutsKey(communityId),
    queryFn: () => unwrap(api.GET("/api/communities/{communityId}/payouts", { params: { path: { communityId } } })),
  });
}

/** 'Connect Stripe' / 'Continue onboarding': answers Stripe's onboarding link. */
export function useConnectPayouts(communityId: string) {
  return useMutation({
    mutationFn: () =>
      unwrap(api.POST("/api/communities/{communityId}/payouts/connect", { params: { path: { communityId } } })),
  });
}

/** 'Refresh status': the account re-read from Stripe. */
export function useRefreshPayouts(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.POST("/api/communities/{communityId}/payouts/refresh", { params: { path: { communityId } } })),
    onSuccess: (payouts) => queryClient.setQueryData(payoutsKey(communityId), payouts),
  });
}
