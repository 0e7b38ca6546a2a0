import { communityQueryKeys } from "#web/features/communities";

/**
 * Every calendar query key. A community's lists live under the community's keys, so joining or
 * leaving (which invalidates every community query) refreshes them; one occurrence and its
 * attendees are keyed by the occurrence's id.
 */
export const eventQueryKeys = {
  /** Prefix of every list of a community's events (upcoming, past, months, up next). */
  lists: (communityId: string) => communityQueryKeys.part(communityId, "events"),
  page: (communityId: string, when: "upcoming" | "past") => communityQueryKeys.part(communityId, "events", when),
  range: (communityId: string, from: string, to: string, zone: string, perDay: number) =>
    communityQueryKeys.part(communityId, "events", "range", from, to, zone, perDay),
  upNext: (communityId: string) => communityQueryKeys.part(communityId, "events", "next"),
  /** The community's tiers (who may attend). */
  tiers: (communityId: string) => communityQueryKeys.part(communityId, "tiers"),
  detail: (occurrenceId: string) => ["events", "detail", occurrenceId] as const,
  attendees: (occurrenceId: string) => ["events", "attendees", occurrenceId] as const,
};
