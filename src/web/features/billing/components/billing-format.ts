import type { BillingInterval } from "#shared/payments";

export const intervalLabel = (interval: BillingInterval) =>
  interval === "month" ? "Monthly" : interval === "year" ? "Annual" : "One-time";

/** A date in the viewer's locale: "Dec 26, 2026". */
export const formatDate = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" }) : "";
