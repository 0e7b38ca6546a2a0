/**
 * Issue 18 "Real payments", Benchmark: Stripe webhook processing through the queue (goal: at least
 * 500 events/s with exactly-once effects) and checkout creation latency, in Stripe mode against
 * the fake Stripe server of the tests (its own process). Two Hearth processes on one database take
 * the webhooks and run the job workers, as two instances behind a load balancer would.
 */
import http from "node:http";
import os from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import Stripe from "stripe";
import { cpuTree } from "../lib/cpu";
import { databaseUrl, spawnChildServer, startBaseline, startHearth, type ChildServer } from "../lib/children";
import { int } from "../lib/format";
import { signIn } from "../lib/hearth-client";
import type { ResultRow, Scenario } from "../lib/scenario";
import { authSecretOf, insertSessions } from "../lib/sessions";
import { printStatementStats, resetStatementStats } from "../lib/statements";
import { connectDatabase } from "../../src/server/db/client";
import { storeEvents } from "../../src/server/features/payments/events";
import { stripeEvent } from "../../src/server/features/payments/stripe-provider";

const WEBHOOK_SECRET = "whsec_hearth_bench";
const SECRET_KEY = "sk_test_hearth_bench";
/** Members who each buy one subscription; each purchase makes 4 events at Stripe. */
const SUBSCRIPTIONS = Number(process.env.BENCH_PAYMENT_SUBSCRIPTIONS ?? 1250);
/** Stripe retries: this share of the events is delivered a second time, in the same stream. */
const DUPLICATE_SHARE = 0.1;
const WEBHOOK_CONNECTIONS = 16;
const CHECKOUT_CONNECTIONS = 8;
const EVENTS_GOAL = 500;
const EVENT_TYPES = [
  "checkout.session.completed",
  "customer.subscription.created",
  "invoice.paid",
  "invoice.payment_succeeded",
];

type Timed = { ms: number[]; statuses: Map<number, number>; seconds: number };

/** Runs `task(i)` for i < n on `connections` concurrent lanes; times each and counts statuses. */
async function lanes(n: number, connections: number, task: (i: number) => Promise<number>): Promise<Timed> {
  const ms: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let i = next++; i < n; i = next++) {
        const s = performance.now();
        const status = await task(i);
        ms.push(performance.now() - s);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return { ms, statuses, seconds: (performance.now() - t0) / 1000 };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : 0;
};
const round1 = (n: number) => Math.round(n * 10) / 10;
const non2xx = (t: Timed) => [...t.statuses].filter(([s]) => s < 200 || s > 299).reduce((a, [, n]) => a + n, 0);

/** A deterministic shuffle (the same order every run). */
function shuffled<T>(xs: T[], seed = 18): T[] {
  const out = [...xs];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * POSTs one signed delivery as Stripe would, over kept-alive connections (node:http: the harness
 * shares the 2 cores with what it measures, and fetch cost it about twice the CPU). Its status.
 */
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: WEBHOOK_CONNECTIONS });
function deliver(url: string, delivery: { body: string; signature: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        agent: keepAlive,
        headers: {
          "content-type": "application/json; charset=utf-8",
          "content-length": Buffer.byteLength(delivery.body),
          "stripe-signature": delivery.signature,
        },
      },
      (res) => {
        res.on("data", () => {});
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(delivery.body);
  });
}

async function json<T>(res: Response, what: string): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export const payments: Scenario = {
  name: "payments",
  title: "Payments: Stripe webhooks through the queue, checkout creation",
  async run(opts) {
    const stripeEnv = (api: string) => ({
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: api,
    });
    const children: ChildServer[] = [];
    // The machine is shared: its load during the run is reported with the numbers.
    const loads = [os.loadavg()[0]];
    let pool: pg.Pool | undefined;
    try {
      const fake = await spawnChildServer({
        name: "fake-stripe",
        script: "fake-stripe-server",
        env: { BENCH_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
      });
      children.push(fake);
      const a = await startHearth({ name: "payments-a", nodeArgs: opts.serverNodeArgs, env: stripeEnv(fake.url) });
      children.push(a);
      const url = await databaseUrl(a);
      const b = await startHearth({
        name: "payments-b",
        nodeArgs: opts.serverNodeArgs,
        env: { ...stripeEnv(fake.url), DATABASE_URL: url },
      });
      children.push(b);
      pool = new pg.Pool({ connectionString: url, max: 4 });

      // A paid community and its members-to-be, with sessions.
      const owner = await signIn(a.url);
      const headers = (cookie: string) => ({ "content-type": "application/json", origin: a.url, cookie });
      const community = await json<{ id: string }>(
        await fetch(`${a.url}/api/communities`, {
          method: "POST",
          headers: headers(owner),
          body: JSON.stringify({ name: "Bench paid community" }),
        }),
        "create community",
      );
      const tier = { name: "Standard", description: "", free: false, annual_amount: null, trial_days: 0 };
      await json(
        await fetch(`${a.url}/api/communities/${community.id}/pricing`, {
          method: "PUT",
          headers: headers(owner),
          body: JSON.stringify({ currency: "usd", grace_days: 7, tiers: [{ ...tier, monthly_amount: 1900 }] }),
        }),
        "save pricing",
      );
      const tiers = await json<{ tiers: { id: string }[] }>(
        await fetch(`${a.url}/api/communities/${community.id}/tiers`),
        "tiers",
      );
      const tierId = tiers.tiers[0].id;
      // Two cohorts: the first's events go through the webhook (a), the second's are stored at once
      // and drained by the queue (c).
      const MEMBERS = 2 * SUBSCRIPTIONS;
      await pool.query(
        `INSERT INTO "user" (id, name, email, email_verified)
         SELECT md5('hearth-bench-pay-' || n), 'Payer ' || n, 'bench-pay-' || n || '@bench.hearth.test', true
           FROM generate_series(1, $1::int) n`,
        [MEMBERS],
      );
      await pool.query(
        `INSERT INTO user_profiles (user_id, username, full_name)
         SELECT md5('hearth-bench-pay-' || n), 'payer' || n, 'Payer ' || n FROM generate_series(1, $1::int) n`,
        [MEMBERS],
      );
      const ids = (
        await pool.query<{ id: string }>(
          `SELECT md5('hearth-bench-pay-' || n) AS id FROM generate_series(1, $1::int) n ORDER BY n`,
          [MEMBERS],
        )
      ).rows.map((r) => r.id);
      const cookies = await insertSessions(pool, authSecretOf(a.dataDir), ids);
      const checkoutBody = JSON.stringify({ product: "tier", tier_id: tierId, interval: "month" });
      const checkout = async (i: number) =>
        fetch(`${a.url}/api/billing/checkout`, { method: "POST", headers: headers(cookies[i]), body: checkoutBody });

      // (b) Checkout creation: every member starts one, against the bare fake's session create
      // with the same parameters (the Stripe call a Hearth checkout makes), in alternating chunks.
      // The first checkout makes the Stripe product and price (once); it is not measured.
      await json(await checkout(0), "warm-up checkout");
      const price = (
        await pool.query<{ p: string }>(`SELECT provider_price_id AS p FROM prices WHERE tier_id = $1`, [tierId])
      ).rows[0].p;
      const sessions: string[] = new Array(MEMBERS);
      const bareForm = (i: number) =>
        new URLSearchParams({
          mode: "subscription",
          "line_items[0][price]": price,
          "line_items[0][quantity]": "1",
          client_reference_id: `bench-${i}`,
          customer_email: `bench-pay-${i}@bench.hearth.test`,
          success_url: `${a.url}/billing/checkout/x`,
          cancel_url: `${a.url}/community/x`,
          "metadata[checkout_id]": `bench-${i}`,
          "subscription_data[metadata][checkout_id]": `bench-${i}`,
        }).toString();
      const hearthTimes: number[] = [];
      const bareTimes: number[] = [];
      const hearthStatuses = new Map<number, number>();
      let hearthSeconds = 0;
      let bareSeconds = 0;
      const chunks = Math.max(1, opts.rounds);
      const chunk = Math.ceil(SUBSCRIPTIONS / chunks);
      for (let c = 0; c < chunks; c++) {
        const from = c * chunk;
        const n = Math.min(chunk, SUBSCRIPTIONS - from);
        const bare = await lanes(n, CHECKOUT_CONNECTIONS, async (i) => {
          const res = await fetch(`${fake.url}/v1/checkout/sessions`, {
            method: "POST",
            headers: { authorization: `Bearer ${SECRET_KEY}`, "content-type": "application/x-www-form-urlencoded" },
            body: bareForm(from + i),
          });
          await res.arrayBuffer();
          return res.status;
        });
        bareTimes.push(...bare.ms);
        bareSeconds += bare.seconds;
        if (non2xx(bare) > 0) throw new Error(`bare session create failed: ${JSON.stringify([...bare.statuses])}`);
        const hearth = await lanes(n, CHECKOUT_CONNECTIONS, async (i) => {
          const res = await checkout(from + i);
          const body = (await res.json()) as { url?: string };
          if (res.status === 201) sessions[from + i] = body.url!.split("/").pop()!;
          return res.status;
        });
        hearthTimes.push(...hearth.ms);
        hearthSeconds += hearth.seconds;
        for (const [s, k] of hearth.statuses) hearthStatuses.set(s, (hearthStatuses.get(s) ?? 0) + k);
      }
      const checkoutFailures = [...hearthStatuses].filter(([s]) => s !== 201).reduce((x, [, k]) => x + k, 0);
      if (checkoutFailures > 0) throw new Error(`checkouts failed: ${JSON.stringify([...hearthStatuses])}`);
      // The second cohort's checkouts, not measured.
      const second = await lanes(SUBSCRIPTIONS, CHECKOUT_CONNECTIONS, async (i) => {
        const res = await checkout(SUBSCRIPTIONS + i);
        const body = (await res.json()) as { url?: string };
        if (res.status === 201) sessions[SUBSCRIPTIONS + i] = body.url!.split("/").pop()!;
        return res.status;
      });
      if (non2xx(second) > 0) throw new Error(`checkouts failed: ${JSON.stringify([...second.statuses])}`);

      // A cohort pays at Stripe; its events are collected, not delivered yet.
      const seen = new Set<string>();
      const pay = async (from: number) => {
        await lanes(SUBSCRIPTIONS, CHECKOUT_CONNECTIONS, async (i) => {
          const res = await fetch(`${fake.url}/test/checkout/${sessions[from + i]}/complete`, { method: "POST" });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`complete ${sessions[from + i]} answered ${res.status}`);
          return res.status;
        });
        const all = await json<{ data: Stripe.Event[] }>(await fetch(`${fake.url}/test/events`), "events");
        const fresh = all.data.filter((e) => EVENT_TYPES.includes(e.type) && !seen.has(e.id));
        for (const e of fresh) seen.add(e.id);
        if (fresh.length !== SUBSCRIPTIONS * 4)
          throw new Error(`expected ${SUBSCRIPTIONS * 4} events, got ${fresh.length}`);
        return fresh;
      };
      const events = await pay(0);
      const repeats = shuffled(events, 7).slice(0, Math.round(events.length * DUPLICATE_SHARE));
      const stream = shuffled([...events, ...repeats]);
      // Signed just before sending, as Stripe does (the signature's timestamp must be recent).
      const bodies = stream.map((e) => {
        const body = JSON.stringify(e);
        return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }) };
      });
      const targets = [a.url, b.url];

      // (a) Webhooks: every event (and the repeats) POSTed to either process over real sockets;
      // timed from the first POST until the last event is processed by the job workers.
      // CPU seconds of everything the events cost: the Hearth processes, PostgreSQL, the fake.
      const cpuOf = () => {
        const out = { hearth: 0, postgres: 0, fake: 0 };
        for (const pid of [a.pid, b.pid])
          for (const p of cpuTree(pid).values())
            out[p.name.startsWith("postgres") ? "postgres" : "hearth"] += p.seconds;
        for (const p of cpuTree(fake.pid).values()) out.fake += p.seconds;
        return out;
      };
      await resetStatementStats(pool);
      const cpuSince = (from: ReturnType<typeof cpuOf>) => {
        const now = cpuOf();
        return { hearth: now.hearth - from.hearth, postgres: now.postgres - from.postgres, fake: now.fake - from.fake };
      };
      /** Waits until `total` events are stored and none waits (or 10 minutes from `since`). */
      const untilProcessed = async (total: number, since: number) => {
        for (;;) {
          // Every event is stored once the intake is answered: the waiting ones are counted (a partial
          // index), not the processed ones (a scan of the table, which would bill PostgreSQL for the poll).
          const waiting = Number(
            (await pool!.query(`SELECT count(*) AS n FROM payment_events WHERE processed_at IS NULL`)).rows[0].n,
          );
          if (waiting === 0) return;
          if (performance.now() - since > 600_000)
            throw new Error(`only ${total - waiting} of ${total} processed in 10 min`);
          // Every 200 ms: the count reads the waiting events' heap rows, a cost the events did not make.
          await new Promise((r) => setTimeout(r, 200));
        }
      };
      const cpu0 = cpuOf();
      const t0 = performance.now();
      const harness0 = process.cpuUsage();
      const intake = await lanes(bodies.length, WEBHOOK_CONNECTIONS, (i) =>
        deliver(`${targets[i % 2]}/api/payments/webhook`, bodies[i]),
      );
      await untilProcessed(events.length, t0);
      const endToEnd = (performance.now() - t0) / 1000;
      const harnessCpu = process.cpuUsage(harness0);
      await printStatementStats(pool);
      loads.push(os.loadavg()[0]);
      const cpuParts = cpuSince(cpu0);
      const cpuSeconds = cpuParts.hearth + cpuParts.postgres + cpuParts.fake;
      const perEvent = (x: number) => ((x * 1000) / events.length).toFixed(1);
      const lag = (
        await pool.query<{ ms: number }>(
          `SELECT extract(epoch FROM processed_at - received_at) * 1000 AS ms FROM payment_events`,
        )
      ).rows.map((r) => Number(r.ms));

      // Exactly once: one entitlement, one payment and one membership per member, every event once.
      const exactlyOnce = async (members: number) => {
        const facts = (
          await pool!.query(
            `SELECT (SELECT count(*) FROM entitlements WHERE provider = 'stripe' AND status = 'active')::int AS entitlements,
                  (SELECT count(*) FROM entitlements WHERE provider = 'stripe')::int AS all_entitlements,
                  (SELECT count(*) FROM payments WHERE provider = 'stripe')::int AS payments,
                  (SELECT count(*) FROM payment_events)::int AS events,
                  (SELECT count(*) FROM community_members WHERE community_id = $1 AND role = 'member')::int AS members,
                  (SELECT count(*) FROM jobs WHERE queue = 'payments.event' AND dead_at IS NOT NULL)::int AS dead,
                  (SELECT count(*) FROM checkout_sessions WHERE provider = 'stripe' AND status = 'complete')::int AS complete`,
            [community.id],
          )
        ).rows[0];
        const expected = {
          entitlements: members,
          all_entitlements: members,
          payments: members,
          events: members * 4,
          members,
          dead: 0,
          complete: members,
        };
        for (const [k, v] of Object.entries(expected))
          if (facts[k] !== v) throw new Error(`exactly-once check failed: ${k} is ${facts[k]}, expected ${v}`);
        return facts;
      };
      const facts = await exactlyOnce(SUBSCRIPTIONS);

      // (c) The queue alone: the second cohort's events stored at once (one transaction, the rows the
      // webhook stores: storeEvents), as a burst of deliveries leaves them, then drained by the two
      // processes' workers; timed from the commit until every event is processed.
      const drained = await pay(SUBSCRIPTIONS);
      const store = connectDatabase(url, { max: 1 });
      const cpu2 = cpuOf();
      let t2 = 0;
      try {
        await store.db.transaction(async (tx) => {
          for (let i = 0; i < drained.length; i += 500)
            await storeEvents(tx, "stripe", drained.slice(i, i + 500).map(stripeEvent));
        });
        t2 = performance.now();
      } finally {
        await store.close();
      }
      await untilProcessed(drained.length, t2);
      const drainSeconds = (performance.now() - t2) / 1000;
      const drainCpu = cpuSince(cpu2);
      const drainCpuSeconds = drainCpu.hearth + drainCpu.postgres + drainCpu.fake;
      const drainLag = (
        await pool.query<{ ms: number }>(
          `SELECT extract(epoch FROM processed_at - received_at) * 1000 AS ms FROM payment_events WHERE id = ANY($1)`,
          [drained.map((e) => e.id)],
        )
      ).rows.map((r) => Number(r.ms));
      await exactlyOnce(MEMBERS);

      // The intake's baseline: a bare server that reads each body and answers the same bytes.
      const baseline = await startBaseline("payments", {
        "/api/payments/webhook": {
          status: 200,
          contentType: "application/json; charset=utf-8",
          body: Buffer.from(JSON.stringify({ received: true, duplicate: false })),
          readBody: true,
        },
      });
      children.push(baseline);
      const bareIntake = await lanes(bodies.length, WEBHOOK_CONNECTIONS, (i) =>
        deliver(`${baseline.url}/api/payments/webhook`, bodies[i]),
      );

      const duplicates = intake.statuses.get(200) ?? 0;
      const rows: ResultRow[] = [
        {
          endpoint: `POST /api/payments/webhook: verify, store once, queue (${int(bodies.length)} deliveries, 2 processes)`,
          connections: WEBHOOK_CONNECTIONS,
          requestsPerSecond: bodies.length / intake.seconds,
          p50: round1(quantile(intake.ms, 0.5)),
          p99: round1(quantile(intake.ms, 0.99)),
          non2xx: non2xx(intake),
          errors: 0,
          reference: { label: "bare server reading the body", requestsPerSecond: bodies.length / bareIntake.seconds },
        },
        {
          endpoint: `Webhook events processed end to end, exactly once (${int(events.length)} events/s; p50/p99: received → processed)`,
          connections: WEBHOOK_CONNECTIONS,
          requestsPerSecond: events.length / endToEnd,
          p50: round1(quantile(lag, 0.5)),
          p99: round1(quantile(lag, 0.99)),
          non2xx: non2xx(intake),
          errors: 0,
          reference: { label: `issue goal, ${EVENTS_GOAL} events/s`, requestsPerSecond: EVENTS_GOAL },
          goal: 1,
        },
        {
          endpoint: `The queue alone: ${int(drained.length)} events stored at once, processed exactly once (events/s; p50/p99: stored → processed)`,
          connections: 4,
          requestsPerSecond: drained.length / drainSeconds,
          p50: round1(quantile(drainLag, 0.5)),
          p99: round1(quantile(drainLag, 0.99)),
          non2xx: 0,
          errors: 0,
          reference: { label: `issue goal, ${EVENTS_GOAL} events/s`, requestsPerSecond: EVENTS_GOAL },
          goal: 1,
        },
        {
          endpoint: `POST /api/billing/checkout (p95 ${round1(quantile(hearthTimes, 0.95))} ms; bare ${round1(quantile(bareTimes, 0.95))} ms)`,
          connections: CHECKOUT_CONNECTIONS,
          requestsPerSecond: hearthTimes.length / hearthSeconds,
          p50: round1(quantile(hearthTimes, 0.5)),
          p99: round1(quantile(hearthTimes, 0.99)),
          non2xx: checkoutFailures,
          errors: 0,
          reference: { label: "fake Stripe's session create alone", requestsPerSecond: bareTimes.length / bareSeconds },
        },
      ];
      const notes = [
        `Stripe mode against the fake Stripe server of the tests (\`src/server/test/fake-stripe.ts\`, its own process, in memory), two Hearth processes on one bundled PostgreSQL (the second with \`DATABASE_URL\`), each running its job worker. ${int(SUBSCRIPTIONS)} members (inserted with SQL, sessions signed as Better Auth signs them) each start a checkout of one $19/month tier; the checkout row compares Hearth's whole request (checks, stored price, checkout row, the Stripe call, its id saved) with the fake's session create alone with the same parameters, in ${chunks} alternating chunks at ${CHECKOUT_CONNECTIONS} connections; p50/p99 (and p95 in the label) are client-side ms.`,
        `Each member then pays at the fake (4 events each: checkout.session.completed, customer.subscription.created, invoice.paid, invoice.payment_succeeded; ${int(events.length)} events). The harness signs each as Stripe does and POSTs them, shuffled (out of order) with ${Math.round(DUPLICATE_SHARE * 100)}% delivered twice (${int(bodies.length)} deliveries, ${int(duplicates)} answered 200), alternately to the two processes at ${WEBHOOK_CONNECTIONS} connections. End to end is from the first POST until every event is processed (each re-reads its object from the fake inside the object's advisory lock); its p50/p99 are each event's received → processed time in ms. Checked afterwards: ${int(facts.entitlements)} active entitlements, ${int(facts.payments)} payments, ${int(facts.members)} memberships, ${int(facts.complete)} completed checkouts, ${int(facts.events)} stored events, ${facts.dead} dead jobs — exactly one of each per member.`,
      ];
      notes.push(
        `CPU: the two Hearth processes, PostgreSQL and the fake Stripe used ${cpuSeconds.toFixed(1)} CPU seconds for the ${int(bodies.length)} deliveries and ${int(events.length)} events (${perEvent(cpuSeconds)} ms an event, intake included: Hearth's Node processes ${perEvent(cpuParts.hearth)} ms, PostgreSQL ${perEvent(cpuParts.postgres)} ms, the fake ${perEvent(cpuParts.fake)} ms) over ${endToEnd.toFixed(1)} s, ${(cpuSeconds / endToEnd).toFixed(2)} of the ${os.cpus().length} cores; the harness sending the deliveries (node:http, kept-alive connections) used ${((harnessCpu.user + harnessCpu.system) / 1e6).toFixed(1)} more (${perEvent((harnessCpu.user + harnessCpu.system) / 1e6)} ms an event), and the rest of the time they waited for a core the machine's other work held. With the ${os.cpus().length} cores to themselves that cost bounds the rate at about ${int((os.cpus().length * events.length) / cpuSeconds)} events/s (the fake's share included, which real Stripe would not cost).`,
        `The queue alone (c): a second cohort of ${int(SUBSCRIPTIONS)} members pays, and its ${int(drained.length)} events are stored in one transaction with the rows the webhook stores (\`storeEvents\`), as a burst of deliveries leaves them; the two processes' workers (two batches at once each, the connections column) then process them, timed from the commit until none waits (their first poll comes within a second). CPU: ${drainCpuSeconds.toFixed(1)} CPU seconds, ${perEvent(drainCpuSeconds)} ms an event (Node ${perEvent(drainCpu.hearth)} ms, PostgreSQL ${perEvent(drainCpu.postgres)} ms, the fake ${perEvent(drainCpu.fake)} ms) over ${drainSeconds.toFixed(1)} s, ${(drainCpuSeconds / drainSeconds).toFixed(2)} of the ${os.cpus().length} cores. Checked afterwards: ${int(2 * SUBSCRIPTIONS)} of each, exactly once.`,
        `Load average (1 min) of the ${os.cpus().length}-core machine: ${loads.map((l) => l.toFixed(1)).join(" at the start, ")} when the last event was processed; the baselines ran under the same load. Each Hearth process claims the oldest waiting events with the other waiting events of their subscriptions (\`jobs.group_key\`) and applies them in batches of about 32, two at once (\`JobWorker.setBatch\`, \`src/server/features/payments/event-batch.ts\`): each object re-read once, one transaction per batch; batches that share a subscription wait for each other (advisory locks), and new members' rows, which lock the community's row (member count) until the commit, go in last, so the scenario's single community is the worst case.`,
      );
      return { rows, notes };
    } finally {
      await pool?.end().catch(() => {});
      for (const child of children.reverse()) await child.stop().catch(() => {});
    }
  },
};
