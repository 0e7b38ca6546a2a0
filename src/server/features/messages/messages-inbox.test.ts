import { describe, expect, it } from "vitest";
import { community, http, inbox, open, person, q, send, useMessagesApp } from "./messages.test-helpers";

/*
 * The inbox's first page is kept per process under the person's inbox version (migration 0029):
 * every change it could show moves the version, whatever made it, so the next read shows it.
 */

useMessagesApp();

const version = async (userId: string) =>
  Number(
    (await q<{ version: string }>(`SELECT version FROM inbox_versions WHERE user_id = $1`, [userId]))[0]?.version ?? 0,
  );

describe("the kept first page of the inbox", () => {
  it("shows every change at the next read: messages, read marks, edits, names, memberships, blocks", async () => {
    const [owner, ann, bob] = await Promise.all([person(), person("Ann"), person("Bob")]);
    const cid = await community(owner, [ann, bob]);
    const conv = await open(ann, bob, "hello");
    const first = await inbox(ann);
    expect(first.conversations.map((c) => c.last_message?.body)).toEqual(["hello"]);
    // Nothing changed: the same bytes, the same version.
    const before = await version(ann.id);
    expect(await inbox(ann)).toEqual(first);
    expect(await version(ann.id)).toBe(before);

    // A message from the other person, their read mark, an edit.
    expect((await send(bob, conv.id, "hi Ann")).status).toBe(201);
    let mine = await inbox(ann);
    expect(mine.conversations[0]).toMatchObject({ last_message: { body: "hi Ann" }, unread_count: 1 });
    expect(mine.unread).toBe(1);
    const last = (mine.conversations[0].last_message as unknown as { id: string }).id;
    expect(await version(ann.id)).toBeGreaterThan(before);
    expect((await http.post(`/api/conversations/${conv.id}/read`, {}, { cookie: ann.cookie })).status).toBe(200);
    expect((await inbox(ann)).unread).toBe(0);
    const theirs = (await inbox(bob)).conversations[0] as unknown as { other_last_read_id: string };
    expect(theirs.other_last_read_id).toBe(last);
    expect((await http.patch(`/api/messages/${last}`, { body: "hi Ann!" }, { cookie: bob.cookie })).status).toBe(200);
    expect((await inbox(ann)).conversations[0].last_message?.body).toBe("hi Ann!");

    // The other person's name, changed by hand in SQL, shows too.
    await q(`UPDATE user_profiles SET full_name = 'Robert' WHERE user_id = $1`, [bob.id]);
    mine = await inbox(ann);
    expect(mine.conversations[0].other).toMatchObject({ full_name: "Robert" });

    // Bob leaves their only shared community: Ann may no longer write to him.
    expect((mine.conversations[0] as unknown as { can_send: boolean }).can_send).toBe(true);
    expect((await http.post(`/api/communities/${cid}/leave`, {}, { cookie: bob.cookie })).status).toBeLessThan(300);
    expect(((await inbox(ann)).conversations[0] as unknown as { can_send: boolean }).can_send).toBe(false);
    await q(`INSERT INTO community_members (community_id, user_id, role) VALUES ($1, $2, 'member')`, [cid, bob.id]);
    expect(((await inbox(ann)).conversations[0] as unknown as { can_send: boolean }).can_send).toBe(true);

    // Ann blocks Bob: the conversation leaves her inbox; unblocking brings it back.
    expect((await http.put(`/api/users/${bob.id}/block`, {}, { cookie: ann.cookie })).status).toBeLessThan(300);
    expect((await inbox(ann)).conversations).toEqual([]);
    expect((await http.delete(`/api/users/${bob.id}/block`, { cookie: ann.cookie })).status).toBeLessThan(300);
    expect((await inbox(ann)).conversations).toHaveLength(1);
  });
});
