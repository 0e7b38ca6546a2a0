import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "#server/lib/free-port";
import { startFakeStripe, type FakeStripe } from "./fake-stripe";

/*
 * The fake Stripe's own process-level knobs (scripts/fake-stripe.ts, e2e/stripe.spec.ts): a fixed
 * port, /health, and webhooks held back and released over HTTP.
 */

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

/** A webhook receiver that records the event types it is sent. */
async function receiver() {
  const types: string[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      types.push((JSON.parse(body) as { type: string }).type);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, types };
}

async function start(options: Parameters<typeof startFakeStripe>[0]): Promise<FakeStripe> {
  const fake = await startFakeStripe(options);
  stops.push(() => fake.close());
  return fake;
}

async function accountId(fake: FakeStripe): Promise<string> {
  const res = await fetch(`${fake.url}/v1/accounts`, {
    method: "POST",
    headers: { authorization: "Bearer sk_test_fake", "content-type": "application/x-www-form-urlencoded" },
    body: "type=express",
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

describe("fake Stripe as a process", () => {
  it("listens on the port it is given and answers /health", async () => {
    const port = await freePort();
    const fake = await start({ webhookSecret: "whsec_test", port });
    expect(fake.url).toBe(`http://127.0.0.1:${port}`);
    const res = await fetch(`${fake.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it("holds webhooks back until released, then sends them in order", async () => {
    const hook = await receiver();
    const fake = await start({ webhookSecret: "whsec_test", webhookUrl: hook.url });
    const first = await accountId(fake);
    await fake.completeOnboarding(first);
    expect(hook.types).toEqual(["account.updated"]);

    expect((await fetch(`${fake.url}/test/webhooks/hold`, { method: "POST" })).status).toBe(200);
    const second = await accountId(fake);
    await fake.completeOnboarding(second);
    await fake.completeOnboarding(second);
    expect(hook.types).toHaveLength(1);
    expect(fake.events).toHaveLength(3);

    const released = await fetch(`${fake.url}/test/webhooks/release`, { method: "POST" });
    expect(released.status).toBe(200);
    // The release answers once the held events are delivered.
    expect(hook.types).toEqual(["account.updated", "account.updated", "account.updated"]);
    expect(fake.deliveries.map((d) => d.eventId)).toEqual(fake.events.map((e) => e.id));

    await fake.completeOnboarding(second);
    expect(hook.types).toHaveLength(4);
  });
});
