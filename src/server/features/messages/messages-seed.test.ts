import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "#server/seed/content/accounts.data";
import { t, useSeededApp } from "#server/seed/seed.test-helpers";
import { api, sessionCookie } from "#server/test/harness";

/*
 * The demo's messages (issue 22): the demo accounts find conversations with each other and with
 * members of their communities, some unread, and members talk among themselves; every stored
 * count agrees with the messages.
 */

useSeededApp();

async function signIn(email: string) {
  const res = await api(t.app).post("/api/auth/sign-in/email", { email, password: DEMO_PASSWORD });
  expect(res.status).toBe(200);
  return sessionCookie(res.headers);
}

describe("demo messages", () => {
  it("the demo accounts have conversations, some unread, and members write to each other", async () => {
    const http = api(t.app);
    const owner = await signIn("owner@hearth.test");
    const member = await signIn("member@hearth.test");
    const ownerInbox = (await http.get("/api/conversations", { cookie: owner })).body;
    const memberInbox = (await http.get("/api/conversations", { cookie: member })).body;
    expect(ownerInbox.conversations).toHaveLength(3);
    expect(ownerInbox.unread).toBe(1);
    expect(memberInbox.conversations).toHaveLength(2);
    expect(memberInbox.unread).toBe(2);
    // Newest first, and the two demo accounts talk to each other.
    const times = memberInbox.conversations.map((c: { updated_at: string }) => c.updated_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(memberInbox.conversations.map((c: { other: { username: string } }) => c.other.username)).toContain("olivia");
    for (const c of memberInbox.conversations) expect(c.can_send).toBe(true);

    const page = (await http.get(`/api/conversations/${memberInbox.conversations[0].id}`, { cookie: member })).body;
    expect(page.messages.length).toBeGreaterThan(1);

    const rows = (
      await t.database.pool.query(`
        SELECT count(*)::int AS n,
               count(*) FILTER (WHERE cm.unread_count <> (
                 SELECT count(*) FROM direct_messages d
                  WHERE d.conversation_id = cm.conversation_id AND d.sender_id = cm.other_user_id
                    AND d.seq > cm.last_read_seq AND d.deleted_at IS NULL))::int AS drift,
               count(*) FILTER (WHERE c.last_message_id IS NULL)::int AS no_last
          FROM conversation_members cm JOIN conversations c ON c.id = cm.conversation_id`)
    ).rows[0];
    expect(rows).toEqual({ n: 12, drift: 0, no_last: 0 });
  }, 60_000);
});
