import { describe, expect, it } from "vitest";
import { MESSAGE_RATE_LIMITS, MESSAGING_MESSAGES } from "#shared/messaging";
import { community, http, open, person, q, send, useMessagesApp, type User } from "./messages.test-helpers";
import { clearOfWindowEnd } from "#server/test/harness";

/*
 * Message rate limits (issue 22, MESSAGE_RATE_LIMITS) with the limiter on: an account younger than
 * newAccountDays is held to fewer messages a minute and fewer new conversations a day.
 */

useMessagesApp({ rateLimits: true });

const established = (u: User) => q(`UPDATE "user" SET created_at = now() - interval '30 days' WHERE id = $1`, [u.id]);

describe("message rate limits", () => {
  it("a new account is limited to fewer messages a minute than an established one", async () => {
    const [owner, fresh, old, bob] = [await person(), await person(), await person(), await person()];
    await community(owner, [fresh, old, bob]);
    await established(old);
    const freshConv = await open(fresh, bob);
    const oldConv = await open(old, bob);
    const perMinute = MESSAGE_RATE_LIMITS.new.perMinute;
    // The limiter counts per clock minute: start early in one, so every send lands in the same window.
    await clearOfWindowEnd(60, 20_000);
    for (let i = 0; i < perMinute; i++) expect((await send(fresh, freshConv.id, `m${i}`)).status).toBe(201);
    const limited = await send(fresh, freshConv.id, "one too many");
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toBe(MESSAGING_MESSAGES.rateLimited);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // The established account goes on past the new account's limit.
    for (let i = 0; i <= perMinute + 2; i++) expect((await send(old, oldConv.id, `m${i}`)).status).toBe(201);
    expect(MESSAGE_RATE_LIMITS.established.perMinute).toBeGreaterThan(perMinute + 3);
  });

  it("a new account starts only a few conversations a day", async () => {
    const owner = await person();
    const fresh = await person();
    const people = [];
    for (let i = 0; i <= MESSAGE_RATE_LIMITS.new.newConversationsPerDay; i++) people.push(await person());
    await community(owner, [fresh, ...people]);
    for (const p of people.slice(0, -1)) await open(fresh, p);
    const limited = await http.post("/api/conversations", { user_id: people.at(-1)!.id }, { cookie: fresh.cookie });
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toBe(MESSAGING_MESSAGES.newConversationsLimited);
    // Finding one that exists is not starting one.
    await open(fresh, people[0]);
  });
});
