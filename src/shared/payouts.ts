import type { ConnectStatus } from "./payments";

/*
 * Where an owner's money goes (issue 18, docs/payments.md): `instance` (every payment goes to this
 * Hearth's own Stripe account, nothing to set up) or `connect` (each community's owner connects a
 * Stripe account of their own and the instance keeps its fee of each payment).
 */

export const PAYOUT_MODES = ["instance", "connect"] as const;
export type PayoutMode = (typeof PAYOUT_MODES)[number];

/** The payout account's flags as Stripe last reported them. */
export type PayoutAccountFlags = { charges_enabled: boolean; payouts_enabled: boolean; details_submitted: boolean };

/**
 * The one rule for a connected account's status: none yet, onboarding (details not all given),
 * active (takes charges and pays out), restricted (details given, yet Stripe holds something back).
 */
export function connectStatusOf(account: PayoutAccountFlags | null): ConnectStatus {
  if (!account) return "not_connected";
  if (account.charges_enabled && account.payouts_enabled) return "active";
  if (!account.details_submitted) return "onboarding";
  return "restricted";
}

export const CONNECT_STATUS_LABELS: Record<ConnectStatus, string> = {
  not_connected: "Not connected",
  onboarding: "Onboarding not finished",
  active: "Active",
  restricted: "Restricted",
};

/** Texts shown to people. */
export const PAYOUT_MESSAGES = {
  instanceMode: "Payments go to this Hearth's Stripe account",
  connectOff: "Payments on this Hearth go to its own Stripe account: there is nothing to connect.",
  restricted: "Stripe needs more details before this account can take payments or pay out.",
  csvLabel: "Download payments (CSV)",
} as const;
