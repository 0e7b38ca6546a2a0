import type { Queryable } from "#server/db/client";

/*
 * Event notifications (issue 19): owned by the notifications-and-reminders work. The service calls
 * these inside the transaction that changes the events; they record who is told, honouring each
 * person's `events` switch and the event-access rule.
 */

/** A new event (series or one-off) was published: tell the members who see it. */
export async function notifyEventCreated(_db: Queryable, _seriesId: string): Promise<void> {}

/** Occurrences changed (time, place, link…): tell those who see them, and those going. */
export async function notifyEventChanged(_db: Queryable, _occurrenceIds: string[]): Promise<void> {}

/** Occurrences were cancelled: tell those who see them, and those going. */
export async function notifyEventCancelled(_db: Queryable, _occurrenceIds: string[]): Promise<void> {}
