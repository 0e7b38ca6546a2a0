import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { MESSAGE_LIMITS, MESSAGING_MESSAGES } from "#shared/messaging";
import { upload } from "#server/test/harness";
import { community, http, inbox, open, page, person, q, send, t, useMessagesApp } from "./messages.test-helpers";

/*
 * Direct messages through the HTTP app (issue 22): who may write to whom, blocking both ways, the
 * inbox, pages, read marks, edit and delete, and images only the two people can fetch.
 */

useMessagesApp();

const refused = (res: { status: number; body: { error?: { message: string } } }) => {
  expect(res.status).toBe(403);
  expect(res.body.error?.message).toBe(MESSAGING_MESSAGES.cannotMessage);
};

describe("who may write to whom", () => {
  it("two members of a community talk; only they read the conversation, everyone else gets 404", async () => {
    const [owner, ann, bob, eve] = [await person(), await person("Ann"), await person("Bob"), await person()];
    const c = await community(owner, [ann, bob, eve]);
    // The site's operators and the community's owner get no more than a stranger.
    await q(`UPDATE community_members SET role = 'admin' WHERE community_id = $1 AND user_id = $2`, [c, eve.id]);
    const conv = await open(ann, bob, "Hello Bob");
    expect(conv.can_send).toBe(true);
    const reply = await send(bob, conv.id, "Hi Ann <b>not bold</b>");
    expect(reply.status).toBe(201);
    expect(reply.body.body).toBe("Hi Ann <b>not bold</b>");

    const mine = await page(ann, conv.id);
    expect(mine.status).toBe(200);
    expect(mine.body.messages.map((m: { body: string }) => m.body)).toEqual(["Hi Ann <b>not bold</b>", "Hello Bob"]);
    for (const u of [owner, eve]) {
      const res = await page(u, conv.id);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe(MESSAGING_MESSAGES.conversationNotFound);
      expect((await send(u, conv.id, "let me in")).status).toBe(404);
      expect((await http.post(`/api/conversations/${conv.id}/read`, {}, { cookie: u.cookie })).status).toBe(404);
      expect((await inbox(u)).conversations).toHaveLength(0);
    }
    // A missing conversation is answered the same way.
    expect((await page(eve, "00000000-0000-4000-8000-000000000000")).body).toEqual((await page(eve, conv.id)).body);
    expect((await http.get(`/api/conversations/${conv.id}`)).status).toBe(401);
    // Opening again finds the same conversation.
    expect((await open(bob, ann)).id).toBe(conv.id);
  });

  it("refuses yourself, people without a shared community, banned members and someone who chose nobody, with one text", async () => {
    const [owner, ann, bob, stranger] = [await person(), await person(), await person(), await person()];
    const c = await community(owner, [ann, bob]);
    await community(await person(), [stranger]);

    const self = await http.post("/api/conversations", { user_id: ann.id, body: "me" }, { cookie: ann.cookie });
    expect(self.status).toBe(403);
    expect(self.body.error.message).toBe(MESSAGING_MESSAGES.cannotMessageSelf);
    refused(await http.post("/api/conversations", { user_id: stranger.id, body: "hi" }, { cookie: ann.cookie }));
    refused(await http.post("/api/conversations", { user_id: "no-such-user", body: "hi" }, { cookie: ann.cookie }));
    expect(await q(`SELECT 1 FROM conversations WHERE $1 IN (user_low, user_high)`, [stranger.id])).toHaveLength(0);

    const conv = await open(ann, bob, "before");
    // Bob chooses nobody: Ann can no longer send, in the conversation or by opening it.
    expect((await http.put("/api/me/messaging", { policy: "nobody" }, { cookie: bob.cookie })).body).toEqual({
      policy: "nobody",
    });
    expect((await http.get("/api/me/messaging", { cookie: bob.cookie })).body.policy).toBe("nobody");
    refused(await send(ann, conv.id, "still there?"));
    refused(await http.post("/api/conversations", { user_id: bob.id, body: "hi" }, { cookie: ann.cookie }));
    expect((await page(ann, conv.id)).body.conversation.can_send).toBe(false);
    // The existing conversation stays readable.
    expect((await page(ann, conv.id)).body.messages).toHaveLength(1);
    await http.put("/api/me/messaging", { policy: "members" }, { cookie: bob.cookie });
    expect((await send(ann, conv.id, "back")).status).toBe(201);

    // Banned from the only shared community: nothing shared.
    expect((await http.post(`/api/communities/${c}/bans`, { user_id: bob.id }, { cookie: owner.cookie })).status).toBe(
      204,
    );
    refused(await send(ann, conv.id, "gone?"));
    refused(await send(bob, conv.id, "I was banned"));
  });

  it("a community's minimum level applies to starting a conversation, not to staff nor to one that exists", async () => {
    const [owner, low, high, target] = [await person(), await person(), await person(), await person()];
    const c = await community(owner, [low, high, target]);
    await q(`UPDATE communities SET min_message_level = 3, name = 'Level Club' WHERE id = $1`, [c]);
    await q(`INSERT INTO member_points (community_id, user_id, like_points) VALUES ($1, $2, 100)`, [c, high.id]);

    const res = await http.post("/api/conversations", { user_id: target.id, body: "hi" }, { cookie: low.cookie });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(MESSAGING_MESSAGES.levelRequired(3, "Level Club"));
    expect(await q(`SELECT 1 FROM conversations WHERE $1 IN (user_low, user_high)`, [low.id])).toHaveLength(0);
    await open(high, target, "hi from level 3");
    // The owner is exempt; once it exists, the low member may answer.
    const conv = await open(owner, low, "welcome");
    expect((await send(low, conv.id, "thanks")).status).toBe(201);
  });
});

describe("blocking", () => {
  it("works both ways, hides the blocked person's conversation and messages from the blocker, and unblocking restores", async () => {
    const [owner, ann, bob] = [await person(), await person("Ann Blocker"), await person("Bob Blocked")];
    await community(owner, [ann, bob]);
    const conv = await open(bob, ann, "one");
    await send(bob, conv.id, "two");
    expect((await inbox(ann)).unread).toBe(1);

    expect((await http.put(`/api/users/${bob.id}/block`, {}, { cookie: ann.cookie })).body).toEqual({ blocked: true });
    expect((await http.get("/api/me/blocks", { cookie: ann.cookie })).body.blocks[0].user.id).toBe(bob.id);
    // The blocked cannot write to me, nor I to them.
    refused(await send(bob, conv.id, "three"));
    refused(await send(ann, conv.id, "and you?"));
    refused(await http.post("/api/conversations", { user_id: ann.id, body: "x" }, { cookie: bob.cookie }));
    // I stop seeing them: no conversation in my inbox, no unread, none of their messages.
    const mine = await inbox(ann);
    expect(mine.conversations).toHaveLength(0);
    expect(mine.unread).toBe(0);
    expect((await http.get("/api/messages/unread-count", { cookie: ann.cookie })).body).toEqual({ unread: 0 });
    const hidden = await page(ann, conv.id);
    expect(hidden.body.messages).toHaveLength(0);
    expect(hidden.body.conversation.blocked).toBe(true);
    expect(hidden.body.conversation.last_message).toBeNull();
    // My profile shows them messages off, as if I chose nobody.
    const username = (
      await q<{ username: string }>(`SELECT username FROM user_profiles WHERE user_id = $1`, [ann.id])
    )[0].username;
    expect((await http.get(`/api/profiles/${username}`, { cookie: bob.cookie })).body.allow_messages).toBe(false);
    expect((await http.get(`/api/profiles/${username}`, { cookie: owner.cookie })).body.allow_messages).toBe(true);
    // The blocked person's side shows nothing about why.
    expect((await page(bob, conv.id)).body.conversation).toMatchObject({ can_send: false, blocked: false });

    expect((await http.delete(`/api/users/${bob.id}/block`, { cookie: ann.cookie })).body).toEqual({ blocked: false });
    const back = await inbox(ann);
    expect(back.conversations.map((c) => c.id)).toEqual([conv.id]);
    expect(back.unread).toBe(1);
    expect((await page(ann, conv.id)).body.messages).toHaveLength(2);
    expect((await send(bob, conv.id, "three")).status).toBe(201);

    expect((await http.put(`/api/users/${ann.id}/block`, {}, { cookie: ann.cookie })).status).toBe(400);
    expect((await http.put(`/api/users/nobody-here/block`, {}, { cookie: ann.cookie })).status).toBe(404);
  });

  it("the blocked person blocking back changes nothing for the first block", async () => {
    const [owner, ann, bob] = [await person(), await person(), await person()];
    await community(owner, [ann, bob]);
    const conv = await open(ann, bob, "hi");
    await http.put(`/api/users/${ann.id}/block`, {}, { cookie: bob.cookie });
    await http.put(`/api/users/${bob.id}/block`, {}, { cookie: ann.cookie });
    await http.delete(`/api/users/${ann.id}/block`, { cookie: bob.cookie });
    refused(await send(bob, conv.id, "still blocked by Ann"));
    refused(await send(ann, conv.id, "still blocking Bob"));
  });
});

describe("inbox, pages and read marks", () => {
  it("lists conversations newest first with keyset pages, searches by name, counts unread and marks read", async () => {
    const [owner, me] = [await person(), await person("Inbox Owner")];
    const others = [await person("Zed Alpha"), await person("Yara Beta"), await person("Xavier Gamma")];
    await community(owner, [me, ...others]);
    const convs = [];
    for (const o of others) convs.push(await open(o, me, `from ${o.id}`));
    // The oldest conversation gets a new message: it moves to the top.
    await send(others[0], convs[0].id, "again");
    const all = await inbox(me);
    expect(all.conversations.map((c) => c.id)).toEqual([convs[0].id, convs[2].id, convs[1].id]);
    expect(all.conversations[0].unread_count).toBe(2);
    expect(all.conversations[0].last_message?.body).toBe("again");
    expect(all.unread).toBe(3);

    const first = await inbox(me, "?limit=2");
    expect(first.conversations).toHaveLength(2);
    const second = await inbox(me, `?limit=2&cursor=${first.next_cursor}`);
    expect(second.conversations.map((c) => c.id)).toEqual([convs[1].id]);
    expect(second.next_cursor).toBeNull();
    expect((await inbox(me, "?q=beta")).conversations.map((c) => c.id)).toEqual([convs[1].id]);
    expect((await inbox(me, "?q=%25")).conversations).toHaveLength(0);

    // Read up to the first of two: one unread left; then all.
    const msgs = (await page(me, convs[0].id)).body.messages as { id: string }[];
    let read = await http.post(
      `/api/conversations/${convs[0].id}/read`,
      { message_id: msgs[1].id },
      { cookie: me.cookie },
    );
    expect(read.body).toEqual({ unread: 3 });
    expect((await page(me, convs[0].id)).body.conversation.unread_count).toBe(1);
    read = await http.post(`/api/conversations/${convs[0].id}/read`, {}, { cookie: me.cookie });
    expect(read.body).toEqual({ unread: 2 });
    // Never backwards; the sender sees the mark.
    await http.post(`/api/conversations/${convs[0].id}/read`, { message_id: msgs[1].id }, { cookie: me.cookie });
    expect((await page(others[0], convs[0].id)).body.conversation.other_last_read_id).toBe(msgs[0].id);
    expect((await http.get("/api/messages/unread-count", { cookie: me.cookie })).body).toEqual({ unread: 2 });
    // Replying reads the conversation.
    await send(me, convs[1].id, "reply");
    expect((await inbox(me)).unread).toBe(1);
    expect(
      (await http.post(`/api/conversations/${convs[0].id}/read`, { message_id: convs[1].id }, { cookie: me.cookie }))
        .status,
    ).toBe(404);
  });

  it("pages a long conversation backwards", async () => {
    const [owner, ann, bob] = [await person(), await person(), await person()];
    await community(owner, [ann, bob]);
    const conv = await open(ann, bob, "m0");
    for (let i = 1; i < 7; i++) expect((await send(i % 2 ? bob : ann, conv.id, `m${i}`)).status).toBe(201);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await page(ann, conv.id, `?limit=3${cursor ? `&before=${cursor}` : ""}`);
      seen.push(...res.body.messages.map((m: { body: string }) => m.body));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(["m6", "m5", "m4", "m3", "m2", "m1", "m0"]);
    expect((await page(ann, conv.id, "?before=abc")).status).toBe(400);
  });
});

describe("bodies, edit and delete", () => {
  it("keeps text as text, refuses empty and too long bodies, edits within the window and deletes as a tombstone", async () => {
    const [owner, ann, bob] = [await person(), await person(), await person()];
    await community(owner, [ann, bob]);
    const conv = await open(ann, bob);
    expect((await send(ann, conv.id, "   ")).status).toBe(400);
    const long = await send(ann, conv.id, "x".repeat(MESSAGE_LIMITS.bodyMax + 1));
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe(MESSAGING_MESSAGES.bodyTooLong);
    const m = (await send(ann, conv.id, "<script>alert(1)</script>")).body;
    expect(m.body).toBe("<script>alert(1)</script>");

    // Only the sender edits; the other person is refused, anyone else finds nothing.
    expect((await http.patch(`/api/messages/${m.id}`, { body: "stolen" }, { cookie: bob.cookie })).status).toBe(403);
    expect((await http.patch(`/api/messages/${m.id}`, { body: "stolen" }, { cookie: owner.cookie })).status).toBe(404);
    const edited = await http.patch(`/api/messages/${m.id}`, { body: "fixed" }, { cookie: ann.cookie });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ body: "fixed", deleted: false });
    expect(edited.body.edited_at).not.toBeNull();
    await q(`UPDATE direct_messages SET created_at = now() - interval '25 hours' WHERE id = $1`, [m.id]);
    const late = await http.patch(`/api/messages/${m.id}`, { body: "too late" }, { cookie: ann.cookie });
    expect(late.status).toBe(403);
    expect(late.body.error.message).toBe(MESSAGING_MESSAGES.editWindowPassed);

    expect((await http.delete(`/api/messages/${m.id}`, { cookie: bob.cookie })).status).toBe(403);
    const gone = await http.delete(`/api/messages/${m.id}`, { cookie: ann.cookie });
    expect(gone.body).toMatchObject({ id: m.id, body: "", deleted: true, image_url: null });
    expect((await q<{ body: string }>(`SELECT body FROM direct_messages WHERE id = $1`, [m.id]))[0].body).toBe("");
    const seen = (await page(bob, conv.id)).body;
    expect(seen.messages[0]).toMatchObject({ id: m.id, deleted: true, body: "" });
    // The deleted message no longer counts as unread.
    expect(seen.conversation.unread_count).toBe(0);
    expect((await http.delete(`/api/messages/${m.id}`, { cookie: ann.cookie })).status).toBe(404);
  });
});

describe("images", () => {
  it("an image the sender uploaded reaches the two people only; another person's upload is refused", async () => {
    const [owner, ann, bob, eve] = [await person(), await person(), await person(), await person()];
    await community(owner, [ann, bob, eve]);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#c2410c" } })
      .png()
      .toBuffer();
    const up = await upload(t, "/api/upload", ann.cookie, { name: "a.png", type: "image/png", data: png });
    expect(up.status).toBe(200);
    const eveUp = await upload(t, "/api/upload", eve.cookie, { name: "e.png", type: "image/png", data: png });
    const conv = await open(ann, bob);

    const foreign = await http.post(
      `/api/conversations/${conv.id}/messages`,
      { image_key: eveUp.body.key },
      { cookie: ann.cookie },
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toBe(MESSAGING_MESSAGES.imageInvalid);

    const sent = await http.post(
      `/api/conversations/${conv.id}/messages`,
      { body: "look", image_key: up.body.key },
      { cookie: ann.cookie },
    );
    expect(sent.status).toBe(201);
    const url = sent.body.image_url as string;
    expect(url).toMatch(/^\/media\/user-uploads\/.+-medium\.webp$/);
    const fetchAs = async (cookie?: string) =>
      (await t.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} })).statusCode;
    expect(await fetchAs(bob.cookie)).toBe(200);
    expect(await fetchAs(ann.cookie)).toBe(200);
    expect(await fetchAs(eve.cookie)).toBe(404);
    expect(await fetchAs(owner.cookie)).toBe(404);
    expect(await fetchAs()).toBe(404);
    const res = await t.app.inject({ method: "GET", url, headers: { cookie: bob.cookie } });
    expect(res.headers["cache-control"]).toBe("private, no-cache");

    // Deleted: the file goes for everyone.
    await http.delete(`/api/messages/${sent.body.id}`, { cookie: ann.cookie });
    expect(await fetchAs(bob.cookie)).toBe(404);
  });
});
