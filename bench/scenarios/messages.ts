/**
 * Issue 22 "Messages", Benchmark: message send → delivery across two Hearth processes at 100
 * messages a second (sent through process A's API, received on SSE streams of process B, both on
 * one PostgreSQL), against a bare node:http SSE server firing the same frames at the same rate; and
 * the inbox of a person with 5,000 conversations (server p95, goal under 20 ms) against a bare
 * node:http server answering the same bytes.
 */
import http from "node:http";
import os from "node:os";
import pg from "pg";
import { databaseUrl, startBaseline, startHearth, startSseBaseline } from "../lib/children";
import { compareEndpoint } from "../lib/endpoint";
import { int } from "../lib/format";
import { fetchFixed } from "../lib/hearth-client";
import type { ResultRow, Scenario } from "../lib/scenario";
import { authSecretOf, insertSessions } from "../lib/sessions";

const RATE = 100; // messages a second
const PAIRS = 20; // senders on A, each writing to their own receiver listening on B
const INBOX_CONVERSATIONS = 5_000;
const INBOX_CONNECTIONS = 10;
const SERVER_P95_GOAL_MS = 20;
const SLUG = "bench-messages";

const userId = (n: string) => `md5('hearth-bench-messages-user-' || ${n})`;

const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const round1 = (n: number) => Math.round(n * 10) / 10;

/** An SSE stream read with a plain http.get: calls `onFrame(event, data)` for each frame; resolves once `ready` came. */
function openStream(
  url: string,
  headers: Record<string, string>,
  onFrame: (event: string, data: Record<string, unknown>) => void,
): Promise<{ close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { accept: "text/event-stream", ...headers } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream ${url}: ${res.statusCode}`));
      res.setEncoding("utf8");
      let buffer = "";
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!event || !data) continue;
          onFrame(event, JSON.parse(data) as Record<string, unknown>);
          if (event === "ready") resolve({ close: () => req.destroy() });
        }
      });
    });
    req.on("error", reject);
  });
}

/** Sends `total` requests at `rate` a second (each at its slot, not waiting for the previous answer). */
async function paced(total: number, rate: number, send: (i: number) => Promise<void>) {
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(send(i));
  }
  await Promise.all(pending);
}

/** Waits until `done()` or `ms` pass. */
async function until(done: () => boolean, ms: number) {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

export const messages: Scenario = {
  name: "messages",
  title: "Messages: send to delivery across two processes at 100 messages/s, the inbox of 5,000 conversations",
  async run(opts) {
    const rows: ResultRow[] = [];
    const notes: string[] = [];
    const a = await startHearth({
      name: "messages-a",
      nodeArgs: opts.serverNodeArgs,
      serverLatency: true,
      sqlCount: true,
    });
    const url = await databaseUrl(a);
    const b = await startHearth({ name: "messages-b", nodeArgs: opts.serverNodeArgs, env: { DATABASE_URL: url } });
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on("error", () => {});
    try {
      const owner = (await pool.query<{ id: string }>(`SELECT id FROM "user" WHERE email = 'owner@hearth.test'`))
        .rows[0].id;
      const t0 = performance.now();
      const people = PAIRS * 2 + INBOX_CONVERSATIONS + 1;
      const [{ id: communityId }] = (
        await pool.query<{ id: string }>(
          `INSERT INTO communities (name, slug, description, category, type, price, creator_name, visibility,
             invite_code, created_by, onboarding_completed)
           SELECT 'Pen Pals', '${SLUG}', 'Everyone writes to everyone.', 'marketing', 'free', 0, o.name, 'public',
                  'benchMessages', o.id, true
             FROM "user" o WHERE o.id = $1
           RETURNING id`,
          [owner],
        )
      ).rows;
      await pool.query(
        `INSERT INTO "user" (id, name, email, email_verified, created_at)
         SELECT ${userId("n")}, 'Pal ' || n, 'bench-messages-' || n || '@bench.hearth.test', true, now() - interval '30 days'
           FROM generate_series(1, $1::int) n`,
        [people],
      );
      await pool.query(
        `INSERT INTO user_profiles (user_id, username, full_name)
         SELECT ${userId("n")}, 'pal' || n, 'Pal ' || n FROM generate_series(1, $1::int) n`,
        [people],
      );
      await pool.query(
        `INSERT INTO community_members (community_id, user_id, role)
         SELECT $1, ${userId("n")}, 'member' FROM generate_series(1, $2::int) n`,
        [communityId, people],
      );
      // The inbox: person 1 with a conversation with each of persons 2 … 5,001, one message each.
      await pool.query(
        `WITH c AS (
           INSERT INTO conversations (user_low, user_high, created_at)
           SELECT least(${userId("1")}, ${userId("n")}), greatest(${userId("1")}, ${userId("n")}), now() - make_interval(mins => n)
             FROM generate_series(2, $1::int + 1) n
           RETURNING id, user_low, user_high, created_at)
         INSERT INTO direct_messages (conversation_id, sender_id, body, created_at)
         SELECT c.id, CASE WHEN c.user_low = ${userId("1")} THEN c.user_high ELSE c.user_low END,
                'Hello from a pen pal, number ' || row_number() OVER (), c.created_at
           FROM c`,
        [INBOX_CONVERSATIONS],
      );
      await pool.query(
        `UPDATE conversations c SET last_message_id = m.id, last_message_at = m.created_at
           FROM direct_messages m WHERE m.conversation_id = c.id AND ${userId("1")} IN (c.user_low, c.user_high)`,
      );
      await pool.query(
        `INSERT INTO conversation_members (conversation_id, user_id, other_user_id, last_read_seq, unread_count, unread_since, last_message_at)
         SELECT c.id, s.u, s.o,
                CASE WHEN s.u = m.sender_id OR random() < 0.9 THEN m.seq ELSE 0 END,
                0, NULL, c.last_message_at
           FROM conversations c JOIN direct_messages m ON m.id = c.last_message_id,
                LATERAL (VALUES (c.user_low, c.user_high), (c.user_high, c.user_low)) AS s(u, o)
          WHERE ${userId("1")} IN (c.user_low, c.user_high)`,
      );
      await pool.query(
        `UPDATE conversation_members cm SET unread_count = 1, unread_since = cm.last_message_at
          WHERE cm.last_read_seq = 0 AND cm.user_id = ${userId("1")}`,
      );
      await pool.query(
        "ANALYZE conversations; ANALYZE conversation_members; ANALYZE direct_messages; ANALYZE user_profiles",
      );
      const seedSeconds = (performance.now() - t0) / 1000;
      console.error(`  [messages data] ${int(INBOX_CONVERSATIONS)} conversations in ${seedSeconds.toFixed(1)} s`);

      // ---- The inbox of person 1 --------------------------------------------------------------
      const secretA = authSecretOf(a.dataDir);
      const [inboxCookie] = await insertSessions(pool, secretA, [
        (await pool.query<{ id: string }>(`SELECT ${userId("1")} AS id`)).rows[0].id,
      ]);
      const path = "/api/conversations";
      const inbox = await fetchFixed(`${a.url}${path}`, { cookie: inboxCookie });
      const answer = JSON.parse(inbox.body.toString()) as {
        conversations: { updated_at: string }[];
        next_cursor: string | null;
        unread: number;
      };
      const [{ unread }] = (
        await pool.query<{ unread: number }>(
          `SELECT count(*)::int AS unread FROM conversation_members WHERE user_id = ${userId("1")} AND unread_count > 0`,
        )
      ).rows;
      const times = answer.conversations.map((c) => c.updated_at);
      if (
        answer.conversations.length !== 30 ||
        !answer.next_cursor ||
        answer.unread !== unread ||
        JSON.stringify([...times].sort().reverse()) !== JSON.stringify(times)
      )
        throw new Error(`the inbox answered ${inbox.body.toString().slice(0, 400)}`);
      const baseline = await startBaseline("messages", { [path]: inbox });
      let inboxDetail: string;
      try {
        const request = { headers: { cookie: inboxCookie }, expectBody: inbox.body.toString() };
        const { row, detail } = await compareEndpoint({
          endpoint: `GET /api/conversations (the inbox of ${int(INBOX_CONVERSATIONS)} conversations, first page)`,
          connections: INBOX_CONNECTIONS,
          hearth: a,
          hearthRequest: { ...request, url: `${a.url}${path}` },
          baseline,
          baselineRequest: { ...request, url: `${baseline.url}${path}` },
          responseBytes: inbox.body.length,
          opts,
          row: { serverP95GoalMs: SERVER_P95_GOAL_MS },
        });
        rows.push(row);
        inboxDetail = detail;
      } finally {
        await baseline.stop();
      }

      // ---- Delivery across two processes ------------------------------------------------------
      const senders = Array.from({ length: PAIRS }, (_, i) => 2 + INBOX_CONVERSATIONS + i);
      const receivers = senders.map((n) => n + PAIRS);
      const ids = async (ns: number[]) =>
        (
          await pool.query<{ id: string }>(
            `SELECT ${userId("n")} AS id FROM unnest($1::int[]) WITH ORDINALITY AS x(n, k) ORDER BY k`,
            [ns],
          )
        ).rows.map((r) => r.id);
      const senderIds = await ids(senders);
      const receiverIds = await ids(receivers);
      const senderCookies = await insertSessions(pool, secretA, senderIds);
      const receiverCookies = await insertSessions(pool, authSecretOf(b.dataDir), receiverIds);
      const conversations: string[] = [];
      for (let i = 0; i < PAIRS; i++) {
        const res = await fetch(`${a.url}/api/conversations`, {
          method: "POST",
          headers: { cookie: senderCookies[i], origin: a.url, "content-type": "application/json" },
          body: JSON.stringify({ user_id: receiverIds[i] }),
        });
        if (res.status !== 200) throw new Error(`open conversation: ${res.status} ${await res.text()}`);
        conversations.push(((await res.json()) as { id: string }).id);
      }
      const total = RATE * opts.seconds;
      const sentAt = new Map<string, number[]>(conversations.map((c) => [c, []]));
      const latencies: number[] = [];
      let failures = 0;
      const streams = await Promise.all(
        receiverCookies.map((cookie) =>
          openStream(`${b.url}/api/realtime/notifications`, { cookie, origin: b.url }, (event, data) => {
            if (event !== "message_new") return;
            const queue = sentAt.get(String(data.conversation_id));
            const at = queue?.shift();
            if (at !== undefined) latencies.push(performance.now() - at);
          }),
        ),
      );
      const sendOne = async (i: number) => {
        const k = i % PAIRS;
        sentAt.get(conversations[k])!.push(performance.now());
        const res = await fetch(`${a.url}/api/conversations/${conversations[k]}/messages`, {
          method: "POST",
          headers: { cookie: senderCookies[k], origin: a.url, "content-type": "application/json" },
          body: JSON.stringify({ body: `Message ${i}` }),
        });
        if (res.status !== 201) failures++;
        await res.arrayBuffer();
      };
      // Warm-up, then the measured run.
      await paced(RATE * Math.max(1, opts.warmupSeconds), RATE, sendOne);
      await until(() => [...sentAt.values()].every((q) => q.length === 0), 5000);
      latencies.length = 0;
      const started = performance.now();
      await paced(total, RATE, sendOne);
      await until(() => latencies.length >= total, 10_000);
      const elapsed = (performance.now() - started) / 1000;
      for (const s of streams) s.close();
      const [{ stored }] = (
        await pool.query<{ stored: number }>(
          `SELECT count(*)::int AS stored FROM direct_messages WHERE conversation_id = ANY($1::uuid[])`,
          [conversations],
        )
      ).rows;

      // The baseline: one bare SSE stream, POST /fire at the same rate, time from the POST to the frame.
      const sse = await startSseBaseline("messages");
      const baseLatencies: number[] = [];
      let firedAt: number[] = [];
      try {
        const stream = await openStream(`${sse.url}/stream`, {}, (event) => {
          if (event !== "message_new") return;
          const at = firedAt.shift();
          if (at !== undefined) baseLatencies.push(performance.now() - at);
        });
        const fire = async () => {
          firedAt.push(performance.now());
          const res = await fetch(`${sse.url}/fire`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              event: "message_new",
              data: { type: "message_new", conversation_id: conversations[0] },
            }),
          });
          await res.arrayBuffer();
        };
        await paced(RATE * Math.max(1, opts.warmupSeconds), RATE, fire);
        await until(() => firedAt.length === 0, 5000);
        baseLatencies.length = 0;
        firedAt = [];
        await paced(total, RATE, fire);
        await until(() => baseLatencies.length >= total, 10_000);
        stream.close();
      } finally {
        await sse.stop();
      }
      const baseElapsed = opts.seconds;
      rows.push({
        endpoint: `message send on A → message_new on a stream of B (${RATE}/s, ${PAIRS} conversations)`,
        connections: PAIRS,
        requestsPerSecond: latencies.length / elapsed,
        p50: round1(percentile(latencies, 50)),
        p99: round1(percentile(latencies, 99)),
        non2xx: failures,
        errors: total - latencies.length,
        reference: { label: "bare node:http SSE, POST /fire", requestsPerSecond: baseLatencies.length / baseElapsed },
      });
      notes.push(
        `Goal (issue 22): message send to delivery p50/p99 across two processes at ${RATE} messages/s, and the inbox of a ` +
          `person with ${int(INBOX_CONVERSATIONS)} conversations under ${SERVER_P95_GOAL_MS} ms server p95.`,
        `Data (set-based SQL, ${seedSeconds.toFixed(1)} s): one public community of ${int(people)} members; person 1 has ` +
          `${int(INBOX_CONVERSATIONS)} conversations of one message each (about a tenth unread: ${int(unread)}).`,
        `Inbox: the first page (30 conversations, newest first, with the other person, the last message, their read mark, ` +
          `whether one may still write, and the unread total), asked by person 1 at ${INBOX_CONNECTIONS} connections (their ` +
          `own tabs), checked (30 entries newest first, a next cursor, the unread total equal to a recount) and compared ` +
          `byte for byte with a bare \`node:http\` server answering the same bytes; server p95 inside the Hearth process. ` +
          inboxDetail,
        `Delivery: two Hearth processes (A with its bundled PostgreSQL, B on the same database through DATABASE_URL), ` +
          `${PAIRS} senders signed in on A writing to ${PAIRS} receivers whose streams (\`/api/realtime/notifications\`) are ` +
          `open on B; ${int(total)} messages sent at ${RATE}/s round-robin (each POST at its slot, not waiting for the ` +
          `previous answer), after a ${Math.max(1, opts.warmupSeconds)} s warm-up at the same rate. Latency is from the start ` +
          `of the POST on A to the \`message_new\` frame read on B (the same machine's clock), so it holds the write ` +
          `transaction, the NOTIFY, B's read of the event and the SSE write. ${int(latencies.length)} of ${int(total)} ` +
          `delivered, ${int(stored)} messages stored (with the warm-up), ${failures} sends refused. In the table, req/s is ` +
          `deliveries per second; p50/p99 are the send-to-delivery latency (ms). The baseline is a bare \`node:http\` ` +
          `SSE server (one stream, POST /fire writing the same frame) at the same rate: p50 ` +
          `${round1(percentile(baseLatencies, 50))} ms, p99 ${round1(percentile(baseLatencies, 99))} ms, ` +
          `${int(baseLatencies.length)} of ${int(total)} delivered. Rate limits off (as in every section), ` +
          `${os.cpus().length} cores shared by both processes, their PostgreSQL and the load generator.`,
      );
    } finally {
      await pool.end().catch(() => {});
      await b.stop();
      await a.stop();
    }
    return { rows, notes };
  },
};
