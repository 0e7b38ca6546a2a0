import { startSmtpSink, type ReceivedMail } from "#server/test/smtp-sink";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueJob } from "#server/lib/jobs";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { REMINDER_SWEEP_QUEUE, reminderTitle } from "./reminders";

/*
 * Reminders (issue 19): one sweep sends each due reminder in the app and by email, a second sends
 * nothing. Mail goes through a real SMTP server on loopback. Events and RSVPs are inserted directly.
 */

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let t: TestApp;
let http: ReturnType<typeof api>;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({ smtpUrl: smtp.url });
  http = api(t.app);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;
const q = (text: string, values: unknown[] = []) => t.database.pool.query(text, values);
const user = () => signedInUser(t);

async function community(owner: User, members: User[]) {
  const c = (
    await http.post("/api/communities", { name: `Reminders ${Date.now().toString(36)}` }, { cookie: owner.cookie })
  ).body as { id: string };
  for (const m of members) {
    expect((await http.post(`/api/communities/${c.id}/join`, {}, { cookie: m.cookie })).status).toBe(200);
  }
  return c;
}

/** A one-off event starting `startsInMinutes` from now. */
async function makeEvent(communityId: string, title: string, startsInMinutes: number, status = "scheduled") {
  const s = await q(
    `INSERT INTO event_series (community_id, title, time_zone, duration_minutes, location_kind, meeting_url, starts_local)
     VALUES ($1, $2, 'America/New_York', 60, 'online', 'https://meet.example.test/r', '2030-01-01T10:00') RETURNING id`,
    [communityId, title],
  );
  const o = await q(
    `INSERT INTO event_occurrences (series_id, community_id, slot_at, starts_at, ends_at, title, time_zone,
                                    duration_minutes, location_kind, meeting_url, status)
     SELECT $1, $2, x, x, x + interval '1 hour', $3, 'America/New_York', 60, 'online', 'https://meet.example.test/r', $5
       FROM (SELECT now() + make_interval(mins => $4) AS x) s
     RETURNING id`,
    [s.rows[0].id, communityId, title, startsInMinutes, status],
  );
  return o.rows[0].id as string;
}

const rsvp = (occurrenceId: string, u: User, status = "going") =>
  q(`INSERT INTO event_rsvps (occurrence_id, user_id, status) VALUES ($1, $2, $3)`, [occurrenceId, u.id, status]);

/** One sweep, as the schedule runs it, with the mail it causes, through the job worker. */
async function sweep() {
  await enqueueJob(t.database.db, REMINDER_SWEEP_QUEUE, {});
  await t.app.ctx.worker.runOnce();
}

/** Waits until `check` holds (the worker delivers mail after the sweep's commit). */
async function until(check: () => boolean | Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await t.app.ctx.worker.runOnce();
    await new Promise((r) => setImmediate(r));
  }
}

const claims = async (occurrenceId: string) =>
  (
    await q(`SELECT user_id, minutes_before FROM event_reminders WHERE occurrence_id = $1 ORDER BY user_id`, [
      occurrenceId,
    ])
  ).rows as { user_id: string; minutes_before: number }[];
const reminders = async (occurrenceId: string) =>
  (
    await q(
      `SELECT user_id, title, in_app, emailed_at FROM notifications
        WHERE type = 'event_reminder' AND data->>'occurrence_id' = $1 ORDER BY user_id`,
      [occurrenceId],
    )
  ).rows as { user_id: string; title: string; in_app: boolean; emailed_at: Date | null }[];
const mailsTo = (u: User) => smtp.received.filter((m) => m.to.includes(u.email));
/** A received message with its quoted-printable soft breaks and escapes undone (ASCII is enough here). */
const plain = (m: ReceivedMail) =>
  m.data.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

describe("reminders", () => {
  it("an event 50 minutes away with 3 people going: one sweep sends 3 in-app reminders and 3 emails, a second sends nothing", async () => {
    const owner = await user();
    const going = [await user(), await user(), await user()];
    const [quiet, gone, notGoing, waiting] = [await user(), await user(), await user(), await user()];
    const c = await community(owner, [...going, quiet, gone, notGoing, waiting]);
    const occ = await makeEvent(c.id, "Office hours", 50);
    for (const u of going) await rsvp(occ, u);
    await rsvp(occ, quiet);
    await rsvp(occ, gone);
    await rsvp(occ, notGoing, "not_going");
    await rsvp(occ, waiting, "waitlisted");
    // One turned the community's events off; one left the community (no longer may attend).
    expect(
      (
        await http.patch(
          "/api/me/notification-settings",
          { community_settings: { [c.id]: { events: false } } },
          { cookie: quiet.cookie },
        )
      ).status,
    ).toBe(200);
    await q(`DELETE FROM community_members WHERE community_id = $1 AND user_id = $2`, [c.id, gone.id]);

    await sweep();
    await until(() => going.every((u) => mailsTo(u).length === 1));

    const sent = await reminders(occ);
    expect(sent.map((r) => r.user_id).sort()).toEqual(going.map((u) => u.id).sort());
    expect(sent.every((r) => r.title === "Starting in 1 hour: Office hours" && r.in_app && r.emailed_at)).toBe(true);
    // Only the 1-hour reminder: the 24-hour one was never due before the event came within the hour.
    expect((await claims(occ)).map((r) => r.minutes_before)).toEqual([60, 60, 60, 60]);
    expect((await claims(occ)).map((r) => r.user_id)).toContain(quiet.id);
    for (const u of going) {
      const [mail] = mailsTo(u);
      expect(mail.data).toContain("Subject: Starting in 1 hour: Office hours");
      expect(plain(mail)).toContain(`http://localhost:3000/community/${c.id}?tab=calendar&event=${occ}\r\n`);
      const bell = await http.get("/api/notifications?limit=5", { cookie: u.cookie });
      expect(bell.body.items[0]).toMatchObject({
        type: "event_reminder",
        title: "Starting in 1 hour: Office hours",
        href: `/community/${c.id}?tab=calendar&event=${occ}`,
      });
    }
    for (const u of [quiet, gone, notGoing, waiting, owner]) expect(mailsTo(u)).toHaveLength(0);
    expect(
      await q(`SELECT 1 FROM notifications WHERE user_id = ANY($1) AND type = 'event_reminder'`, [
        [quiet.id, gone.id, notGoing.id, waiting.id, owner.id],
      ]),
    ).toMatchObject({ rowCount: 0 });

    const mailsBefore = smtp.received.length;
    await sweep();
    await until(async () => (await q(`SELECT 1 FROM jobs WHERE done_at IS NULL AND run_at <= now()`)).rowCount === 0);
    expect(await reminders(occ)).toHaveLength(3);
    expect(await claims(occ)).toHaveLength(4);
    expect(smtp.received.length).toBe(mailsBefore);
  });

  it("24 hours before: 'Tomorrow'; a late RSVP a few hours before is told the hours left; none for an event started or cancelled", async () => {
    const owner = await user();
    const [a, b] = [await user(), await user()];
    const c = await community(owner, [a, b]);
    const tomorrow = await makeEvent(c.id, "Workshop", 23 * 60 + 50);
    const later = await makeEvent(c.id, "Late call", 5 * 60);
    const started = await makeEvent(c.id, "Running", -10);
    const cancelled = await makeEvent(c.id, "Off", 30, "cancelled");
    const farAway = await makeEvent(c.id, "Next week", 7 * 24 * 60);
    for (const occ of [tomorrow, later, started, cancelled, farAway]) await rsvp(occ, a);
    await rsvp(later, b);

    await sweep();
    await until(() => mailsTo(a).length === 2 && mailsTo(b).length === 1);
    expect((await reminders(tomorrow)).map((r) => r.title)).toEqual(["Tomorrow: Workshop"]);
    expect((await claims(tomorrow)).map((r) => r.minutes_before)).toEqual([1440]);
    expect((await reminders(later)).map((r) => r.title)).toEqual([
      "Starting in 5 hours: Late call",
      "Starting in 5 hours: Late call",
    ]);
    for (const occ of [started, cancelled, farAway]) {
      expect(await claims(occ)).toHaveLength(0);
      expect(await reminders(occ)).toHaveLength(0);
    }
  });

  it("follows each person's settings: in-app only gets no email, email only gets no bell entry, all off gets nothing", async () => {
    const owner = await user();
    const [inAppOnly, emailOnly, allOff] = [await user(), await user(), await user()];
    const c = await community(owner, [inAppOnly, emailOnly, allOff]);
    const set = async (u: User, body: Record<string, unknown>) =>
      expect((await http.patch("/api/me/notification-settings", body, { cookie: u.cookie })).status).toBe(200);
    await set(inAppOnly, { email_enabled: false });
    await set(emailOnly, { in_app_enabled: false });
    await set(allOff, { global_enabled: false });
    const occ = await makeEvent(c.id, "Settings check", 40);
    for (const u of [inAppOnly, emailOnly, allOff]) await rsvp(occ, u);

    await sweep();
    await until(() => mailsTo(emailOnly).length === 1);
    expect(mailsTo(emailOnly)[0].data).toContain("Subject: Starting soon: Settings check");
    expect(mailsTo(inAppOnly)).toHaveLength(0);
    expect(mailsTo(allOff)).toHaveLength(0);
    const rows = await reminders(occ);
    expect(rows.find((r) => r.user_id === inAppOnly.id)?.in_app).toBe(true);
    expect(rows.find((r) => r.user_id === emailOnly.id)?.in_app).toBe(false);
    expect(rows.some((r) => r.user_id === allOff.id)).toBe(false);
    expect((await http.get("/api/notifications", { cookie: emailOnly.cookie })).body.items).toHaveLength(0);
    expect(await claims(occ)).toHaveLength(3);
  });
});

describe("reminder titles", () => {
  it("say what is left", () => {
    expect(reminderTitle("X", 1440, 24 * 3600)).toBe("Tomorrow: X");
    expect(reminderTitle("X", 1440, 3 * 3600)).toBe("Starting in 3 hours: X");
    expect(reminderTitle("X", 60, 3600)).toBe("Starting in 1 hour: X");
    expect(reminderTitle("X", 60, 10 * 60)).toBe("Starting soon: X");
  });
});
