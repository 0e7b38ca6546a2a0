import { sql } from "drizzle-orm";
import { EVENT_LIMITS } from "#shared/calendar";
import { FLAG_OF_TYPE, notificationHref } from "#shared/notifications";
import type { AppContext } from "#server/context";
import type { Queryable } from "#server/db/client";
import { isUuid } from "#server/lib/community-access";
import { escapeHtml } from "#server/lib/html";
import type { JobHandler } from "#server/lib/jobs";
import { notificationVisible, unsubscribeToken } from "#server/lib/notifications";
import { REALTIME_NOTIFY_CHANNEL } from "#server/lib/realtime";
import { userMayAttendSql } from "./event-access";
import { startText } from "./event-notifications";

/*
 * Reminders (issue 19, docs/decisions/0015-calendar.md): those going are reminded 24 hours and
 * 1 hour before the start (EVENT_LIMITS.reminderMinutes), in the app and by email.
 *
 * A sweep runs every minute. It finds, per occurrence starting within 24 hours that has not started,
 * the reminder now due (the smallest offset the start is within: an event 50 minutes away is due its
 * 1-hour reminder; its 24-hour one, missed while no process ran, is never sent late), and the people
 * going who may still attend and have no claim for that offset or a later one. Then, in one
 * transaction per batch, one statement inserts the claims (event_reminders, primary key occurrence ×
 * person × offset) with ON CONFLICT DO NOTHING RETURNING, and for exactly the claims it inserted the
 * notifications (for those whose settings and the community's `events` switch allow), their realtime
 * events, and one mail job each. A committed claim means its notification and mail job committed with
 * it; a transaction cut short (a process killed) leaves no claim, and the next sweep takes it; two
 * sweeps racing for a claim meet on the primary key and only one inserts it.
 *
 * The mail job sends the reminder's email once: in one transaction it sets the notification's
 * emailed_at (only if still null) and records the message in the outbox (lib/mail), so a job run
 * again after a crash finds it mailed. A reminder is therefore never part of a digest unless a
 * digest took it first, in which case the job mails nothing.
 */

export const REMINDER_SWEEP_QUEUE = "events.reminders";
export const REMINDER_MAIL_QUEUE = "events.reminder_mail";
/** Claims made per transaction. */
export const REMINDER_BATCH = 100;

const OFFSETS = [...EVENT_LIMITS.reminderMinutes].sort((a, b) => a - b);
const LONGEST = OFFSETS[OFFSETS.length - 1];

/** The reminder's title, from the offset and how long is actually left (a late RSVP is not told "tomorrow"). */
export function reminderTitle(eventTitle: string, minutesBefore: number, secondsLeft: number): string {
  const hours = secondsLeft / 3600;
  if (minutesBefore >= 24 * 60 && hours >= 20) return `Tomorrow: ${eventTitle}`;
  if (hours >= 1.5) return `Starting in ${Math.round(hours)} hours: ${eventTitle}`;
  if (secondsLeft >= 45 * 60) return `Starting in 1 hour: ${eventTitle}`;
  return `Starting soon: ${eventTitle}`;
}

type Due = {
  occurrence_id: string;
  user_id: string;
  minutes_before: number;
  community_id: string;
  title: string;
  starts_at: string;
  time_zone: string;
  seconds_left: number;
};

/** Up to one batch of reminders due now, without a claim, for people who may attend. */
async function dueReminders(db: Queryable): Promise<Due[]> {
  const res = await db.execute<Due>(sql`
    SELECT o.id AS occurrence_id, r.user_id, d.minutes_before, o.community_id, o.title, o.starts_at, o.time_zone,
           extract(epoch FROM o.starts_at - now())::float8 AS seconds_left
      FROM event_occurrences o
      CROSS JOIN LATERAL (
        SELECT min(x)::int AS minutes_before FROM unnest(${sql.param(OFFSETS)}::int[]) AS x
         WHERE o.starts_at <= now() + make_interval(mins => x)) d
      JOIN event_rsvps r ON r.occurrence_id = o.id AND r.status = 'going'
     WHERE o.status = 'scheduled' AND o.starts_at > now()
       AND o.starts_at <= now() + make_interval(mins => ${LONGEST})
       AND NOT EXISTS (SELECT 1 FROM event_reminders er
                        WHERE er.occurrence_id = o.id AND er.user_id = r.user_id
                          AND er.minutes_before <= d.minutes_before)
       AND ${userMayAttendSql(sql`r.user_id`)}
     ORDER BY o.starts_at, o.id, r.user_id
     LIMIT ${REMINDER_BATCH}`);
  return res.rows;
}

type BatchResult = { claimed: number; notified: number; mails: number };

/** Claims the reminders and writes what they send, in one statement, inside the caller's transaction. */
async function claimAndNotify(db: Queryable, due: Due[]): Promise<BatchResult> {
  const rows = due.map((d) => ({
    occurrence_id: d.occurrence_id,
    user_id: d.user_id,
    minutes_before: d.minutes_before,
    community_id: d.community_id,
    title: reminderTitle(d.title, d.minutes_before, Number(d.seconds_left)),
    body: startText(d.starts_at, d.time_zone),
  }));
  const res = await db.execute<BatchResult>(sql`
    WITH cand AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS x(occurrence_id uuid, user_id text, minutes_before int, community_id uuid, title text, body text)
    ), claimed AS (
      INSERT INTO event_reminders (occurrence_id, user_id, minutes_before)
      SELECT occurrence_id, user_id, minutes_before FROM cand
      ON CONFLICT DO NOTHING
      RETURNING occurrence_id, user_id, minutes_before
    ), ok AS (
      SELECT cand.*, coalesce(s.in_app_enabled, true) AS in_app, coalesce(s.email_enabled, true) AS email
        FROM claimed JOIN cand USING (occurrence_id, user_id, minutes_before)
        LEFT JOIN user_notification_settings s ON s.user_id = cand.user_id
       WHERE coalesce(s.global_enabled, true)
         AND (coalesce(s.in_app_enabled, true) OR coalesce(s.email_enabled, true))
         AND coalesce((s.community_settings -> cand.community_id::text ->> ${FLAG_OF_TYPE.event_reminder}::text)::boolean, true)
    ), ins AS (
      -- emailed_at is set now for those without email (a later digest does not dig it up); for the
      -- others the mail job sets it when it mails.
      INSERT INTO notifications (user_id, community_id, type, title, body, data, in_app, emailed_at)
      SELECT ok.user_id, ok.community_id, 'event_reminder', ok.title, ok.body,
             jsonb_build_object('occurrence_id', ok.occurrence_id, 'community_id', ok.community_id,
                                'minutes_before', ok.minutes_before),
             ok.in_app, CASE WHEN ok.email THEN NULL ELSE now() END
        FROM ok
      RETURNING id, user_id, in_app, emailed_at IS NULL AS mail
    ), ev AS (
      INSERT INTO realtime_events (channel, payload)
      SELECT 'user:' || ins.user_id, jsonb_build_object('type', 'notification', 'id', ins.id)
        FROM ins WHERE ins.in_app
      RETURNING id, channel
    ), mails AS (
      INSERT INTO jobs (queue, payload)
      SELECT ${REMINDER_MAIL_QUEUE}::text, jsonb_build_object('notificationId', ins.id) FROM ins WHERE ins.mail
      RETURNING id
    )
    SELECT (SELECT count(*) FROM claimed)::int AS claimed,
           (SELECT count(*) FROM ins)::int AS notified,
           (SELECT count(pg_notify(${REALTIME_NOTIFY_CHANNEL}::text, ev.channel || '|' || ev.id)) FROM ev)::int AS announced,
           (SELECT count(*) FROM mails)::int AS mails`);
  const r = res.rows[0];
  return { claimed: Number(r.claimed), notified: Number(r.notified), mails: Number(r.mails) };
}

/**
 * Sends every reminder due now, a batch per transaction, until none is left. Returns how many
 * claims, notifications and mail jobs this run made (others made by a parallel run are not counted).
 */
export async function sendDueReminders(ctx: Pick<AppContext, "db" | "worker">): Promise<BatchResult> {
  const total: BatchResult = { claimed: 0, notified: 0, mails: 0 };
  // Each batch either claims its rows or finds them claimed by a committed run, so the next batch
  // sees fewer; the bound only guards against a bug turning this into a loop.
  for (let i = 0; i < 10_000; i++) {
    const r = await ctx.db.transaction(async (tx) => {
      const due = await dueReminders(tx);
      return due.length === 0 ? null : claimAndNotify(tx, due);
    });
    if (!r) break;
    total.claimed += r.claimed;
    total.notified += r.notified;
    total.mails += r.mails;
    if (r.mails > 0) ctx.worker.kick();
  }
  return total;
}

type MailRow = {
  user_id: string;
  email: string;
  title: string;
  body: string;
  community_id: string;
  community_name: string | null;
  occurrence_id: string;
};

/**
 * Mails one reminder, once: marks it mailed and records the message in one transaction, only if it
 * was not mailed yet, the person still wants email from this community's events, still sees the
 * event, and it is still to come and not cancelled.
 */
export async function sendReminderMail(ctx: AppContext, notificationId: string): Promise<boolean> {
  if (!isUuid(notificationId)) return false;
  return ctx.db.transaction(async (tx) => {
    const res = await tx.execute<MailRow>(sql`
      UPDATE notifications n SET emailed_at = now()
        FROM "user" u
       WHERE n.id = ${notificationId} AND u.id = n.user_id AND n.type = 'event_reminder' AND n.emailed_at IS NULL
         AND NOT EXISTS (
               SELECT 1 FROM user_notification_settings s
                WHERE s.user_id = n.user_id
                  AND NOT (s.global_enabled AND s.email_enabled
                           AND coalesce((s.community_settings -> n.community_id::text ->> ${FLAG_OF_TYPE.event_reminder}::text)::boolean, true)))
         AND EXISTS (SELECT 1 FROM event_occurrences eo
                      WHERE eo.id = (n.data->>'occurrence_id')::uuid AND eo.status = 'scheduled' AND eo.starts_at > now())
         AND ${notificationVisible}
      RETURNING n.user_id, u.email, n.title, n.body, n.community_id, n.data->>'occurrence_id' AS occurrence_id,
                (SELECT c.name FROM communities c WHERE c.id = n.community_id) AS community_name`);
    const row = res.rows[0];
    if (!row) return false;
    await ctx.mailer.send(reminderMail(ctx, row), { db: tx });
    return true;
  });
}

function reminderMail(ctx: AppContext, r: MailRow) {
  const base = ctx.config.publicUrl;
  const token = unsubscribeToken(ctx.config.authSecret, r.user_id);
  const unsubscribeUrl = `${base}/notifications/unsubscribe?token=${token}`;
  const oneClickUrl = `${base}/api/notifications/unsubscribe?token=${token}`;
  const link = `${base}${notificationHref({ community_id: r.community_id, post_id: null, occurrence_id: r.occurrence_id })}`;
  const where = r.community_name ? ` in ${r.community_name}` : "";
  const footer = "You get this email because you're going and email notifications are on.";
  const text = [
    `${r.title}${where}`,
    r.body,
    "",
    `Open the event: ${link}`,
    "",
    `${footer} Turn them off: ${unsubscribeUrl}`,
    "",
    "— Hearth",
  ].join("\n");
  const html =
    `<p><strong>${escapeHtml(r.title)}</strong>${escapeHtml(where)}<br>${escapeHtml(r.body)}</p>` +
    `<p><a href="${escapeHtml(link)}">Open the event</a></p>` +
    `<p style="color:#78716c;font-size:12px">${escapeHtml(footer)} ` +
    `<a href="${escapeHtml(unsubscribeUrl)}">Turn off email notifications</a></p><p>— Hearth</p>`;
  return {
    to: r.email,
    subject: r.title,
    text,
    html,
    headers: { "List-Unsubscribe": `<${oneClickUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

/** The reminder sweep (every minute) and the reminder mail job, registered by app.ts. */
export function reminderJobHandlers(ctx: AppContext): Record<string, JobHandler> {
  ctx.worker.addSchedule({ name: "events-reminders", queue: REMINDER_SWEEP_QUEUE, everyMs: 60_000 });
  return {
    [REMINDER_SWEEP_QUEUE]: async () => {
      const r = await sendDueReminders(ctx);
      if (r.claimed > 0) ctx.log.info(r, "events: reminders sent");
    },
    [REMINDER_MAIL_QUEUE]: async (payload) => {
      if (typeof payload.notificationId === "string") await sendReminderMail(ctx, payload.notificationId);
    },
  };
}
