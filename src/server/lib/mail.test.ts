import { sql } from "drizzle-orm";
import { startSmtpSink } from "#server/test/smtp-sink";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestApp, secondProcess, type TestApp } from "#server/test/harness";

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({ smtpUrl: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe("mail over SMTP", () => {
  it("delivers the sign-up confirmation through a real SMTP conversation", async () => {
    const email = `smtp${Date.now()}@example.test`;
    const res = await api(t.app).post("/api/auth/sign-up/email", {
      name: "Mail Test",
      username: `mail_${Date.now().toString(36)}`,
      email,
      password: "secret-pass",
    });
    expect(res.status).toBe(200);
    await t.app.ctx.worker.runOnce();
    const msg = smtp.received.find((m) => m.to.includes(email));
    expect(msg).toBeDefined();
    expect(msg!.data).toContain("Subject: Confirm your email for Hearth");
    const decoded = msg!.data
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    expect(decoded).toMatch(/http:\/\/localhost:3000\/api\/auth\/verify-email\?token=[\w.-]+&callbackURL=%2F/);
    const [row] = (
      await t.database.db.execute<{ status: string }>(sql`SELECT status FROM mail_messages WHERE "to" = ${email}`)
    ).rows;
    expect(row.status).toBe("sent");
  });

  it("keeps a queued message across a crash: another process delivers it", async () => {
    const email = `crash${Date.now()}@example.test`;
    await t.app.ctx.mailer.send({ to: email, subject: "Survives", text: "Still here" });
    // This process "dies" before its worker runs; a second app on the same database picks the job up.
    const other = await secondProcess(t);
    await other.ctx.worker.runOnce();
    await other.close();
    expect(smtp.received.some((m) => m.to.includes(email) && m.data.includes("Subject: Survives"))).toBe(true);
  });

  it("retries a delivery the SMTP server refused", async () => {
    const email = `retry${Date.now()}@example.test`;
    smtp.refuseNext(1);
    await t.app.ctx.mailer.send({ to: email, subject: "Retry me", text: "Second time lucky" });
    await t.app.ctx.worker.runOnce();
    expect(smtp.received.some((m) => m.to.includes(email))).toBe(false);
    const [job] = (
      await t.database.db.execute<{ attempts: number; last_error: string }>(
        sql`SELECT attempts, last_error FROM jobs WHERE payload->>'messageId' = (SELECT id::text FROM mail_messages WHERE "to" = ${email})`,
      )
    ).rows;
    expect(job.attempts).toBe(1);
    expect(job.last_error).toMatch(/Try again later/);
    // Make the retry due now instead of after the backoff.
    await t.database.db.execute(sql`UPDATE jobs SET run_at = now() WHERE done_at IS NULL`);
    await t.app.ctx.worker.runOnce();
    expect(smtp.received.some((m) => m.to.includes(email))).toBe(true);
  });
});
