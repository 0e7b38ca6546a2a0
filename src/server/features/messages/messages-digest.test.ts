import { describe, expect, it } from "vitest";
import { MESSAGE_LIMITS, MESSAGING_MESSAGES } from "#shared/messaging";
import { mailTo } from "#server/test/harness";
import { community, http, open, person, q, send, t, useMessagesApp } from "./messages.test-helpers";

/*
 * Unread messages in the email digest (issue 22): 15 minutes after a person's messages start
 * waiting unread, their digest lists who wrote (never what), once, and only with email on.
 */

useMessagesApp();

const digestChecks = (userId: string) =>
  q<{ run_at: Date }>(
    `SELECT run_at FROM jobs WHERE queue = 'messages.digest' AND payload->>'userId' = $1 ORDER BY id`,
    [userId],
  );

/** Moves time on: the waiting messages are 16 minutes old and every queued check is due. */
async function fifteenMinutesLater(userId: string) {
  await q(`UPDATE conversation_members SET unread_since = unread_since - interval '16 minutes' WHERE user_id = $1`, [
    userId,
  ]);
  await q(`UPDATE jobs SET run_at = now() WHERE done_at IS NULL AND payload->>'userId' = $1`, [userId]);
  await t.app.ctx.worker.runOnce();
}

describe("unread messages in the email digest", () => {
  it("lists who wrote after 15 minutes unread, once, without the messages themselves", async () => {
    const [owner, ann, bob] = [await person(), await person("Ann Writer"), await person("Bob Reader")];
    await community(owner, [ann, bob]);
    const conv = await open(ann, bob, "The secret plan is in the attic");
    await send(ann, conv.id, "And the key is under the mat");
    // One check per wait, due when the first unread message has waited 15 minutes.
    const checks = await digestChecks(bob.id);
    expect(checks).toHaveLength(1);
    const wait = (checks[0].run_at.getTime() - Date.now()) / 1000;
    expect(wait).toBeGreaterThan(MESSAGE_LIMITS.digestAfterSeconds - 30);
    expect(wait).toBeLessThanOrEqual(MESSAGE_LIMITS.digestAfterSeconds);

    await fifteenMinutesLater(bob.id);
    const mails = await mailTo(t, bob.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("You have unread messages on Hearth");
    expect(mails[0].text).toContain(`${MESSAGING_MESSAGES.digestHeading}:`);
    expect(mails[0].text).toContain(MESSAGING_MESSAGES.digestLine("Ann Writer", 2));
    expect(mails[0].text).toContain(`${t.config.publicUrl}/messages/${conv.id}`);
    expect(mails[0].text).not.toContain("attic");
    expect(mails[0].text).not.toContain("mat");
    // The sender gets nothing; the same wait is not mailed twice.
    expect(await mailTo(t, ann.email)).toHaveLength(0);
    await send(ann, conv.id, "third");
    await fifteenMinutesLater(bob.id);
    expect(await mailTo(t, bob.email)).toHaveLength(1);
  });

  it("leaves out conversations read in time and everyone whose email is off", async () => {
    const [owner, ann, bob, carol] = [await person(), await person("Ann"), await person(), await person()];
    await community(owner, [ann, bob, carol]);
    const toBob = await open(ann, bob, "read me soon");
    await http.post(`/api/conversations/${toBob.id}/read`, {}, { cookie: bob.cookie });
    expect(
      (await http.patch("/api/me/notification-settings", { email_enabled: false }, { cookie: carol.cookie })).status,
    ).toBe(200);
    await open(ann, carol, "you will not hear of this by email");
    await fifteenMinutesLater(bob.id);
    await fifteenMinutesLater(carol.id);
    expect(await mailTo(t, bob.email)).toHaveLength(0);
    expect(await mailTo(t, carol.email)).toHaveLength(0);
  });
});
