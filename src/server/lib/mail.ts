import { eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Db, Queryable } from "#server/db/client";
import { mailMessages } from "#server/db/schema/index";
import { enqueueJob, type JobHandler } from "./jobs";
import { escapeHtml } from "./html";

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, such as List-Unsubscribe. */
  headers?: Record<string, string>;
};

export type Mailer = {
  /**
   * Records the message durably; SMTP delivery happens from the job queue, with retries. Pass a
   * transaction as `db` to record it with the caller's other writes.
   */
  send: (mail: OutgoingMail, opts?: { db?: Queryable }) => Promise<void>;
  deliverJob: JobHandler;
  transport: "outbox" | "smtp";
};

export function createMailer(opts: {
  db: Db;
  smtpUrl?: string;
  from: string;
  onQueued?: () => void;
  /** Told of every message that stays in the outbox (no SMTP): recipient and subject only, never the body. */
  log?: { warn: (obj: object, msg: string) => void };
}): Mailer {
  const smtp = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;
  const transport = smtp ? "smtp" : "outbox";
  return {
    transport,
    async send(mail, sendOpts = {}) {
      let messageId: string | undefined;
      await (sendOpts.db ?? opts.db).transaction(async (tx) => {
        const [row] = await tx
          .insert(mailMessages)
          .values({
            ...mail,
            transport,
            // Without SMTP the outbox is the destination: the message is delivered once recorded.
            status: smtp ? "queued" : "sent",
            sentAt: smtp ? null : new Date(),
          })
          .returning({ id: mailMessages.id });
        if (smtp) await enqueueJob(tx, "mail", { messageId: row.id });
        else messageId = row.id;
      });
      if (smtp) {
        opts.onQueued?.();
      } else {
        // Recipient and subject only: the body holds confirmation and reset links, credentials that
        // do not belong in logs. Operators read it at /admin/mailbox.
        opts.log?.warn(
          { mailId: messageId, to: mail.to, subject: mail.subject },
          "mail not sent (no SMTP_URL): kept in the outbox",
        );
      }
    },
    async deliverJob(payload) {
      if (!smtp) return;
      const id = String(payload.messageId);
      const [msg] = await opts.db.select().from(mailMessages).where(eq(mailMessages.id, id));
      if (!msg || msg.status === "sent") return;
      await smtp.sendMail({
        from: opts.from,
        to: msg.to,
        subject: msg.subject,
        text: msg.text,
        html: msg.html ?? undefined,
        headers: msg.headers ?? undefined,
      });
      await opts.db
        .update(mailMessages)
        .set({ status: "sent", sentAt: new Date(), error: null })
        .where(eq(mailMessages.id, id));
    },
  };
}

/** A plain message with one call-to-action link, as text and as simple HTML. */
export function actionMail(
  to: string,
  subject: string,
  intro: string,
  action: string,
  url: string,
  outro = "",
): OutgoingMail {
  const text = `${intro}\n\n${action}: ${url}\n${outro ? `\n${outro}\n` : ""}\n— Hearth`;
  const html = `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(action)}</a></p>${
    outro ? `<p>${escapeHtml(outro)}</p>` : ""
  }<p>— Hearth</p>`;
  return { to, subject, text, html };
}
