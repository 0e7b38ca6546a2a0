import type pg from "pg";

import { sql } from "drizzle-orm";

/**
 * Inside a statement run on its own (not in a longer transaction): the triggers of hearth_viewer
 * and hearth_members stay quiet until its commit (migration 0035's hearth_app_announces), and the
 * caller announces what they would have after it, through the Announcer.
 */
export const APP_ANNOUNCES = sql`set_config('hearth.app_announces', 'on', true)`;

type Log = { warn: (obj: unknown, msg?: string) => void };

/** At most this many announcements go in one statement; more wait for the next. */
const BATCH = 1_000;
/** A batch is tried this many times in all, a little later each time, before it is given up. */
const ATTEMPTS = 3;

/**
 * Announcements this process makes itself, after its own commit, for writes too frequent to
 * announce one transaction at a time (a member's like toggle of a post or a comment, migrations
 * 0035 and 0036, and poll vote; decision 0028). PostgreSQL runs notifying commits one after
 * another, so a NOTIFY in each toggle's transaction made toggles as slow as a row of commits.
 * Here the payloads of every write that committed meanwhile go in one statement, and only one such
 * statement is under way at a time: the busier the process, the more each carries. An announcement
 * leaves within one statement's time of its write (a few milliseconds), as a trigger's would reach
 * the other processes after the commit.
 *
 * If the process dies between a write's commit and its announcement, the other processes keep what
 * they had until it expires (their caches keep entries at most a minute); if the database refuses
 * the statement, it is tried ATTEMPTS times in all, then given up with a warning.
 */
export class Announcer {
  private pending = new Map<string, Set<string>>();
  private running: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly pool: Pick<pg.Pool, "query">,
    private readonly log: Log,
  ) {}

  /** Sends `payload` on `channel` soon, once however many times it is asked for before it goes. */
  announce(channel: string, payload: string): void {
    if (this.closed) return;
    let set = this.pending.get(channel);
    if (!set) this.pending.set(channel, (set = new Set()));
    set.add(payload);
    this.running ??= this.run();
  }

  /** Resolves when everything announced so far has been sent (or given up). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Sends what is waiting and takes no more. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private take(): { channels: string[]; payloads: string[] } {
    const channels: string[] = [];
    const payloads: string[] = [];
    for (const [channel, set] of this.pending) {
      for (const payload of set) {
        if (channels.length === BATCH) return { channels, payloads };
        channels.push(channel);
        payloads.push(payload);
        set.delete(payload);
      }
      this.pending.delete(channel);
    }
    return { channels, payloads };
  }

  private async run(): Promise<void> {
    try {
      // The writes answered in this turn of the event loop go together.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.pending.size > 0) {
        const { channels, payloads } = this.take();
        for (let attempt = 1; ; attempt++) {
          try {
            await this.pool.query({
              name: "hearth_announce",
              text: "SELECT count(pg_notify(c, p))::int AS sent FROM unnest($1::text[], $2::text[]) AS t(c, p)",
              values: [channels, payloads],
            });
            break;
          } catch (err) {
            if (attempt >= ATTEMPTS) {
              this.log.warn(
                { err, count: channels.length },
                "announcements not sent; other processes' caches expire instead",
              );
              break;
            }
            await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
          }
        }
      }
    } finally {
      this.running = undefined;
    }
  }
}
