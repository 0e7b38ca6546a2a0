import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";

export type BillingPlan = paths["/api/billing/plan"]["get"]["responses"][200]["content"]["application/json"];

export const billingPlanKey = ["billing", "plan"] as const;

export const fetchBillingPlan = () => unwrap(api.GET("/api/billing/plan"));

export const billingPlanQueryOptions = () => queryOptions({ queryKey: billingPlanKey, queryFn: fetchBillingPlan });

/** The creator's plan and trial, or null. Only asked for a signed-in visitor. */
export function useBillingPlan(enabled: boolean) {
  return useQuery({ ...billingPlanQueryOptions(), enabled });
}
