import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueJob } from "#server/lib/jobs";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { startServerOnTestDatabase, type ServerProcess } from "#server/test/server-process";
import { startSmtpSink } from "#server/test/smtp-sink";
import { REMINDER_BATCH, REMINDER_SWEEP_QUEUE } from "./reminders";

/*
 * Reminders are sent exactly once with two server processes (`src/server/main.ts` in child processes,
 * both running the job worker and its every-minute reminder sweep) on one PostgreSQL, one of them
 * killed with SIGKILL in the middle of a sweep. Mail goes to a real SMTP server on loopback.
 *
 * To kill process 1 at a known point of its sweep, the test holds one claim of the last batch in
 * an open transaction: process 1 commits its first batch, then waits on that row inside its second
 * batch's transaction. Process 2's sweep reaches the same rows and waits too. Then process 1 is
 * killed, and the test lets go of the row. Nothing is waited for by time: only for conditions.
 */

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
const servers: ServerProcess[] = [];
const dirs: string[] = [];
/** The test's open transactions holding claims. */
const holders: pg.PoolClient[] = [];

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp();
});
afterAll(async () => {
  for (const h of holders) {
    await h.query("ROLLBACK").catch(() => undefined);
    h.release();
  }
  for (const s of servers) s.child.kill("SIGKILL");
  await Promise.all(servers.map((s) => s.exited));
  await t.close();
  await smtp.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const q = (text: string, values: unknown[] = []) => t.database.pool.query(text, values);
const count = async (text: string, values: unknown[] = []) => Number((await q(text, values)).rows[0].n);

async function startProcess(): Promise<ServerProcess> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "hearth-reminders-"));
  dirs.push(dir);
  const { server } = await startServerOnTestDatabase(t, dir, { SMTP_URL: smtp.url, LOG_LEVEL: "fatal" });
  servers.push(server);
  return server;
}

/** Waits until `check` holds, polling; fails with `what` after `ms`. */
async function until(what: string, check: () => Promise<boolean>, ms = 60_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Backends of this database waiting for a row lock (the sweeps stopped at the held claim). */
const lockWaiters = () =>
  count(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);

describe("reminders across two server processes", () => {
  it("are each sent exactly once (claim, notification, email) when both sweep the same rows and one is killed mid-sweep", async () => {
    // Two events 50 and 51 minutes away, each with `perEvent` people going: three batches.
    const perEvent = REMINDER_BATCH + 20;
    const total = 2 * perEvent;
    const owner = await signedInUser(t);
    const c = (await api(t.app).post("/api/communities", { name: "Two Sweeps" }, { cookie: owner.cookie })).body as {
      id: string;
    };
    const userId = (i: number) => `sweep_${String(i).padStart(4, "0")}`;
    await q(
      `INSERT INTO "user" (id, name, email, email_verified)
         SELECT 'sweep_' || lpad(i::text, 4, '0'), 'Sweeper ' || i, 'sweep' || i || '@example.test', true
           FROM generate_series(1, $1) i`,
      [perEvent],
    );
    await q(
      `INSERT INTO community_members (community_id, user_id)
         SELECT $1, 'sweep_' || lpad(i::text, 4, '0') FROM generate_series(1, $2) i`,
      [c.id, perEvent],
    );
    const occurrences: string[] = [];
    for (const [title, minutes] of [
      ["Call A", 50],
      ["Call B", 51],
    ] as const) {
      const s = await q(
        `INSERT INTO event_series (community_id, title, time_zone, duration_minutes, location_kind, meeting_url, starts_local)
           VALUES ($1, $2, 'Europe/London', 60, 'online', 'https://meet.example.test/s', '2030-01-01T10:00') RETURNING id`,
        [c.id, title],
      );
      const o = await q(
        `INSERT INTO event_occurrences (series_id, community_id, slot_at, starts_at, ends_at, title, time_zone,
                                          duration_minutes, location_kind, meeting_url)
           SELECT $1, $2, x, x, x + interval '1 hour', $3, 'Europe/London', 60, 'online', 'https://meet.example.test/s'
             FROM (SELECT now() + make_interval(mins => $4) AS x) s
           RETURNING id`,
        [s.rows[0].id, c.id, title, minutes],
      );
      occurrences.push(o.rows[0].id);
      await q(
        `INSERT INTO event_rsvps (occurrence_id, user_id, status)
           SELECT $1, 'sweep_' || lpad(i::text, 4, '0'), 'going' FROM generate_series(1, $2) i`,
        [o.rows[0].id, perEvent],
      );
    }
    const claims = () => count(`SELECT count(*) AS n FROM event_reminders`);

    // The sweep's order is (start, occurrence, person). Held uncommitted by the test: the last claim
    // of the second batch (event B, person 2 × BATCH − perEvent) and the very last (event B, last person).
    const hold = async (occurrenceId: string, user: string) => {
      const client = await t.database.pool.connect();
      holders.push(client);
      await client.query("BEGIN");
      await client.query(`INSERT INTO event_reminders (occurrence_id, user_id, minutes_before) VALUES ($1, $2, 60)`, [
        occurrenceId,
        user,
      ]);
      return async () => {
        await client.query("ROLLBACK");
        client.release();
        holders.splice(holders.indexOf(client), 1);
      };
    };
    const releaseSecond = await hold(occurrences[1], userId(2 * REMINDER_BATCH - perEvent));
    const releaseLast = await hold(occurrences[1], userId(perEvent));

    // Process 1 starts; its schedule enqueues this minute's sweep. It commits the first batch, then
    // waits on the held row inside the second.
    const first = await startProcess();
    await until(
      "process 1 to commit a batch and wait inside the next",
      async () => (await claims()) === REMINDER_BATCH && (await lockWaiters()) >= 1,
    );

    // Process 2 starts and is given a sweep of its own (the minute's is taken), ahead of the mail
    // jobs: it selects the same rows as process 1's second batch and waits on them.
    await startProcess();
    await enqueueJob(t.database.db, REMINDER_SWEEP_QUEUE, {}, { runAt: new Date(Date.now() - 3_600_000) });
    await until("process 2's sweep to wait on the same rows", async () => (await lockWaiters()) >= 2);

    // Process 1 commits its second batch; process 2's claims of the same rows find them taken and
    // send nothing for them. Both go on to the last rows and wait on the last held claim.
    await releaseSecond();
    await until(
      "both sweeps to wait in the last batch",
      async () => (await claims()) === 2 * REMINDER_BATCH && (await lockWaiters()) >= 2,
    );

    first.child.kill("SIGKILL");
    await first.exited;
    await releaseLast();

    await until(
      "every claim, notification and email",
      async () => {
        return (
          (await claims()) === total &&
          (await count(`SELECT count(*) AS n FROM notifications WHERE type = 'event_reminder'`)) === total &&
          smtp.received.length >= total
        );
      },
      // Each message is its own SMTP connection, a few a second.
      180_000,
    );

    // The killed process's sweep job is taken again once its lease runs out (made to run out now):
    // it finds nothing left to send.
    await q(`UPDATE jobs SET locked_until = now() WHERE queue = $1 AND done_at IS NULL`, [REMINDER_SWEEP_QUEUE]);
    await until(
      "every sweep and mail job to be done",
      async () =>
        (await count(`SELECT count(*) AS n FROM jobs WHERE done_at IS NULL AND dead_at IS NULL AND queue = ANY($1)`, [
          [REMINDER_SWEEP_QUEUE, "events.reminder_mail", "mail"],
        ])) === 0,
    );

    expect(await claims()).toBe(total);
    expect(
      await count(
        `SELECT count(*) AS n FROM (SELECT DISTINCT user_id, data->>'occurrence_id' FROM notifications
                                       WHERE type = 'event_reminder') x`,
      ),
    ).toBe(total);
    expect(await count(`SELECT count(*) AS n FROM notifications WHERE type = 'event_reminder'`)).toBe(total);
    expect(await count(`SELECT count(*) AS n FROM mail_messages WHERE subject LIKE 'Starting in 1 hour: Call _'`)).toBe(
      total,
    );
    expect(await count(`SELECT count(*) AS n FROM jobs WHERE dead_at IS NOT NULL`)).toBe(0);
    expect(smtp.received).toHaveLength(total);
    const sent = new Set(
      smtp.received.map((m) => `${m.to.join(",")}|${/^Subject: (.*)$/m.exec(m.data)?.[1]?.trim() ?? ""}`),
    );
    expect(sent.size).toBe(total);
    for (let i = 1; i <= perEvent; i++) {
      expect(sent.has(`sweep${i}@example.test|Starting in 1 hour: Call A`)).toBe(true);
      expect(sent.has(`sweep${i}@example.test|Starting in 1 hour: Call B`)).toBe(true);
    }
  }, 300_000);
});
