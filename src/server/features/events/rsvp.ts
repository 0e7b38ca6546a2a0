import type { Queryable } from "#server/db/client";

/*
 * RSVPs and the waitlist (issue 19): owned by the RSVP work. The event service calls promoteWaitlist
 * after raising an occurrence's capacity (or removing it), inside its transaction.
 */

/** Moves people from the waitlist to going, first in line first, while there is room. */
export async function promoteWaitlist(_db: Queryable, _occurrenceId: string): Promise<void> {}
