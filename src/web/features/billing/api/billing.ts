import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CheckoutInput, PricingInput, RecurringInterval } from "#shared/payments";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";

export type BillingOverview = paths["/api/billing"]["get"]["responses"][200]["content"]["application/json"];
export type Subscription = BillingOverview["subscriptions"][number];
export type Checkout = paths["/api/billing/checkout/{id}"]["get"]["responses"][200]["content"]["application/json"];
export type CommunityTiers =
  paths["/api/communities/{communityId}/tiers"]["get"]["responses"][200]["content"]["application/json"];
export type Tier = CommunityTiers["tiers"][number];
export type Pricing =
  paths["/api/communities/{communityId}/pricing"]["get"]["responses"][200]["content"]["application/json"];

export const billingKeys = {
  all: ["billing"] as const,
  overview: () => ["billing", "overview"] as const,
  checkout: (id: string) => ["billing", "checkout", id] as const,
  tiers: (communityId: string) => ["billing", "tiers", communityId] as const,
  pricing: (communityId: string) => ["billing", "pricing", communityId] as const,
};

/** The viewer's subscriptions, course purchases and payments. */
export function useBilling(enabled: boolean) {
  return useQuery({
    queryKey: billingKeys.overview(),
    queryFn: () => unwrap(api.GET("/api/billing")),
    enabled,
  });
}

/** One checkout; polled every second until the provider's confirmation lands (or it ends). */
export function useCheckout(id: string, { enabled, poll }: { enabled: boolean; poll: boolean }) {
  return useQuery({
    queryKey: billingKeys.checkout(id),
    queryFn: () => unwrap(api.GET("/api/billing/checkout/{id}", { params: { path: { id } } })),
    enabled,
    refetchInterval: (query) => (poll && query.state.data?.status === "open" ? 1000 : false),
  });
}

/** A private community's tiers are shown to its members, or to whoever holds its invite code. */
export const tiersQueryOptions = (communityId: string, inviteCode?: string) =>
  queryOptions({
    queryKey: billingKeys.tiers(communityId),
    queryFn: () =>
      unwrap(
        api.GET("/api/communities/{communityId}/tiers", {
          params: { path: { communityId }, query: inviteCode ? { invite_code: inviteCode } : {} },
        }),
      ),
  });

/** A community's tiers on sale, with their monthly and annual prices. */
export const useTiers = (communityId: string, enabled = true, inviteCode?: string) =>
  useQuery({ ...tiersQueryOptions(communityId, inviteCode), enabled });

/** Starts a checkout; answers where to send the browser. */
export function useStartCheckout() {
  return useMutation({
    mutationFn: (body: CheckoutInput) => unwrap(api.POST("/api/billing/checkout", { body })),
  });
}

/** The simulated card form was submitted (no card data is sent). */
export function useSimulatedPayment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST("/api/billing/checkout/{id}/simulated-payment", { params: { path: { id } } })),
    onSuccess: (checkout) => queryClient.setQueryData(billingKeys.checkout(id), checkout),
  });
}

/** Cancel, resume and change plan of one subscription; the overview is read again after each. */
export function useSubscriptionActions(id: string) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: billingKeys.all });
  const params = { params: { path: { id } } };
  return {
    cancel: useMutation({
      mutationFn: () => unwrap(api.POST("/api/billing/subscriptions/{id}/cancel", params)),
      onSuccess,
    }),
    resume: useMutation({
      mutationFn: () => unwrap(api.POST("/api/billing/subscriptions/{id}/resume", params)),
      onSuccess,
    }),
    change: useMutation({
      mutationFn: (body: { tier_id: string; interval: RecurringInterval }) =>
        unwrap(api.POST("/api/billing/subscriptions/{id}/change", { ...params, body })),
      onSuccess,
    }),
  };
}

/** Stripe's customer portal (card, invoices). */
export function usePortal() {
  return useMutation({ mutationFn: () => unwrap(api.POST("/api/billing/portal")) });
}

/** The Pricing tab's state (owner, admin). */
export function usePricing(communityId: string) {
  return useQuery({
    queryKey: billingKeys.pricing(communityId),
    queryFn: () => unwrap(api.GET("/api/communities/{communityId}/pricing", { params: { path: { communityId } } })),
  });
}

export function useSavePricing(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PricingInput) =>
      unwrap(api.PUT("/api/communities/{communityId}/pricing", { params: { path: { communityId } }, body })),
    onSuccess: (saved) => {
      queryClient.setQueryData(billingKeys.pricing(communityId), saved);
      return queryClient.invalidateQueries({ queryKey: billingKeys.tiers(communityId) });
    },
  });
}

/** A checkout's address: a page of this site goes through the router, Stripe's through the browser. */
export function goToCheckout(url: string, navigate: (to: string) => void) {
  if (url.startsWith("/")) navigate(url);
  else window.location.assign(url);
}
