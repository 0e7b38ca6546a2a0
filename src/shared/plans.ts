/*
 * Creator plans and trial figures (SPEC §9), without zod: the marketing pages read them and must
 * not download a schema library for a few numbers. The request schema is in billing.ts.
 */
/** Creator plans (SPEC §9). Prices are per month; the annual plan is billed yearly. */
export const PLANS = {
  monthly: { id: "monthly", label: "Monthly", pricePerMonth: 99, billed: "Billed monthly", saving: null },
  annual: {
    id: "annual",
    label: "Annual",
    pricePerMonth: 97,
    billed: "Billed yearly",
    saving: "Save $24/year",
  },
} as const;

export type PlanId = keyof typeof PLANS;
export const PLAN_IDS = ["monthly", "annual"] as const satisfies readonly PlanId[];
export const DEFAULT_PLAN: PlanId = "annual";

export const TRIAL_DAYS = 14;
/** The free-trial page's own figure (SPEC §9: the two prices disagree; both are given). */
export const FREE_TRIAL_PAGE_PRICE = 89;
/** What members of the new paid community pay per month until the creator changes it. */
export const DEFAULT_PAID_COMMUNITY_PRICE = 9;
/** Slug for a paid sign-up: the email's local part and a random 4-digit number, up to this many tries. */
export const PAID_SLUG_TRIES = 10;
