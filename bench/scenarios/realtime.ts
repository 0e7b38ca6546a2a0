/**
 * Issue "Realtime": one server process holding 2,000 SSE connections; the time for one community
 * event to reach all of them (p50, p99 and the last) and the memory per connection, against a bare
 * node:http SSE server (children/sse-baseline-server.ts) holding as many and writing the same frame
 * to each. The 2,000 watchers are signed-in members of one public community (users, profiles,
 * memberships and sessions inserted with set-based SQL on the benchmark's own database, the session
 * cookies signed with the server's secret); the event is a post the owner writes through the API.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import os from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { DEFAULT_REALTIME_SETTINGS } from "../../src/server/lib/realtime";
import {
  databaseUrl,
  serverMemory,
  sqlCounter,
  startHearth,
  startSseBaseline,
  type ChildServer,
} from "../lib/children";
import { cpuTree } from "../lib/cpu";
import { signIn } from "../lib/hearth-client";
import { median } from "../lib/load";
import type { ResultRow, Scenario } from "../lib/scenario";
import { int, sleep } from "../lib/format";
import { authSecretOf, sessionCookie } from "../lib/sessions";
import { BENCH_DIR, TS_LOADER } from "../lib/paths";
import { monotonicMs } from "../lib/clock";

/** Streams on each server (BENCH_STREAMS; the goal is 10,000 on one process). */
const WATCHERS = Math.max(10, Number(process.env.BENCH_STREAMS ?? "10000") || 10000);
/** Streams opened per second, on each server: under the hub's joinsPerSecond (new streams per process). */
const OPEN_PER_SECOND = 150;
/** Measured events of each kind on Hearth (after a pause, soon after another), and twice as many on the baseline. */
const EVENTS_PER_KIND = 8;
const ACCESS_TTL_MS = DEFAULT_REALTIME_SETTINGS.accessTtlMs;
/**
 * The pause before the first event of each pair ("cold"): longer than the access cache kept an
 * entry until it was dropped by the database's announcements instead (5 s, until 2026-11-27), so
 * the row compares with the earlier runs.
 */
const COLD_GAP_MS = 6000;
/** The pause before the second event of each pair ("warm"). */
const WARM_GAP_MS = 1000;
const SETTLE_MS = 2000;
/** After the streams close, before memory is read: a stream's access entry goes with it. */
const CLOSED_SETTLE_MS = 5000;
/** Issue 23, item 6: one event reaches every stream with p99 under this, and each stream costs at most HEAP_GOAL_BYTES. */
const P99_GOAL_MS = 250;
const HEAP_GOAL_BYTES = 10 * 1024;

const ms1 = (n: number) => `${n.toFixed(n < 10 ? 2 : n < 100 ? 1 : 0)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const times = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)}×`;

/** This process's open-file limit (the shell's `ulimit -n`; Node cannot raise it itself). */
function openFileLimit(): number {
  const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync("/proc/self/limits", "utf8"));
  return !m || m[1] === "unlimited" ? Infinity : Number(m[1]);
}

/** The q-th quantile (0–1) of sorted values, nearest rank. */
const quantile = (sorted: ArrayLike<number>, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
const sortedOf = (xs: number[]) => Float64Array.from(xs).sort();

/** CPU seconds so far of a server's own process and of the rest of its tree (its PostgreSQL). */
function cpuSplit(pid: number): { node: number; rest: number } {
  let node = 0;
  let rest = 0;
  for (const [p, { seconds }] of cpuTree(pid)) {
    if (p === pid) node += seconds;
    else rest += seconds;
  }
  return { node, rest };
}

/**
 * The SSE clients of one server, in a child process (children/sse-fleet.ts): one process may not
 * hold both servers' sockets, and each fleet reads its own sockets on its own event loop. Receipt
 * times are on the machine's monotonic clock (`monotonicMs`), comparable with this process's.
 */
class Fleet {
  private readonly child: ChildProcess;
  private readonly answers = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  /** Streams the server refused (any status but 200), as of the last `check`. */
  refused = 0;

  constructor(
    readonly name: string,
    count: number,
  ) {
    this.child = fork(path.join(BENCH_DIR, "children", "sse-fleet.ts"), [], {
      execArgv: ["--import", TS_LOADER],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.child.on("message", (m: { id: number; reply?: unknown; error?: string }) => {
      const answer = this.answers.get(m.id);
      this.answers.delete(m.id);
      if (m.error !== undefined) answer?.reject(new Error(m.error));
      else answer?.resolve(m.reply);
    });
    this.child.on("exit", (code, signal) => {
      for (const a of this.answers.values()) a.reject(new Error(`${name}'s client process exited (${code ?? signal})`));
      this.answers.clear();
    });
    this.child.send({ type: "init", name, count });
  }

  private ask<T>(type: string, fields: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.answers.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, type, ...fields });
    });
  }

  open(url: string, index: number, headers: Record<string, string>): void {
    this.child.send({ type: "open", url, index, headers });
  }
  /** Resolves when every client has its `ready` frame. */
  ready = () => this.ask<null>("ready");
  /** Resolves with each client's receipt time of post `postId`, once every client has it. */
  delivered = (postId: string) => this.ask<number[]>("delivered", { postId });
  /** From the request to the `ready` frame, per client (ms). */
  openTimes = () => this.ask<number[]>("openTimes");
  /** CPU milliseconds the client process has used so far. */
  cpuMs = () => this.ask<number>("cpu");
  async check(postIds: string[]) {
    const result = await this.ask<{ refused: number; wrong: number; problems: string[] }>("check", { postIds });
    this.refused = result.refused;
    return result;
  }
  close = () => this.ask<null>("close");
  stop(): void {
    if (this.child.exitCode === null) this.child.kill();
  }
}

type EventRun = {
  side: "hearth" | "baseline";
  /** Hearth's cold and warm events (see the notes); the baseline's are all "baseline". */
  kind: "cold" | "warm" | "baseline" | "warm-up";
  postId: string;
  /** Receipt − just before the request was sent, per client (ms), sorted. */
  latencies: Float64Array;
  /** When the answer to the POST came back (ms after it was sent). */
  answerMs: number;
  /** CPU seconds of the server's own process and of its PostgreSQL, from the send to the last receipt. */
  cpu: { node: number; rest: number };
  harnessCpuMs: number;
  /** SQL statements the Hearth process sent in the same window (background rechecks included). */
  statements?: number;
};

/** Sends one event (`send` returns its post id) and waits until every client has it. */
async function runEvent(
  side: EventRun["side"],
  kind: EventRun["kind"],
  server: ChildServer,
  clients: Fleet,
  send: () => Promise<string>,
  sql?: ReturnType<typeof sqlCounter>,
): Promise<EventRun> {
  await sql?.reset();
  const cpu0 = cpuSplit(server.pid);
  const harness0 = await clients.cpuMs();
  const t0 = monotonicMs();
  const postId = await send();
  const answerMs = monotonicMs() - t0;
  const arrivals = await clients.delivered(postId);
  const harnessCpuMs = (await clients.cpuMs()) - harness0;
  const cpu1 = cpuSplit(server.pid);
  const statements = sql ? (await sql.read()).statements : undefined;
  const latencies = sortedOf(arrivals.map((at) => at - t0));
  return {
    side,
    kind,
    postId,
    latencies,
    answerMs,
    cpu: { node: cpu1.node - cpu0.node, rest: cpu1.rest - cpu0.rest },
    harnessCpuMs,
    statements,
  };
}

type Summary = {
  events: number;
  p50: number;
  p99: number;
  max: number;
  /** Per event: the time until the first client had it (median of the events). */
  firstMedian: number;
  /** Per event: the time until the last client had it (median of the events, and the worst). */
  lastMedian: number;
  lastWorst: number;
  answerMedian: number;
  serverCpuMs: number;
  pgCpuMs: number;
  harnessCpuMs: number;
  statements?: number;
};

function summarize(runs: EventRun[]): Summary {
  const all = sortedOf(runs.flatMap((r) => [...r.latencies]));
  const lasts = runs.map((r) => r.latencies[r.latencies.length - 1]);
  return {
    events: runs.length,
    p50: quantile(all, 0.5),
    p99: quantile(all, 0.99),
    max: all[all.length - 1],
    firstMedian: median(runs.map((r) => r.latencies[0])),
    lastMedian: median(lasts),
    lastWorst: Math.max(...lasts),
    answerMedian: median(runs.map((r) => r.answerMs)),
    serverCpuMs: median(runs.map((r) => r.cpu.node * 1000)),
    pgCpuMs: median(runs.map((r) => r.cpu.rest * 1000)),
    harnessCpuMs: median(runs.map((r) => r.harnessCpuMs)),
    statements: runs[0]?.statements === undefined ? undefined : median(runs.map((r) => r.statements!)),
  };
}

const describe = (s: Summary) =>
  `p50 ${ms1(s.p50)}, p99 ${ms1(s.p99)}, max ${ms1(s.max)}; first client ${ms1(s.firstMedian)}, last client ` +
  `${ms1(s.lastMedian)} (medians of ${s.events} events; worst last ${ms1(s.lastWorst)})`;

type Memory = { heapUsed: number; external: number; rssAnon: number };

/** Private anonymous resident memory of a process (RssAnon, bytes): RSS without its mapped files. */
function rssAnon(pid: number): number {
  const m = /^RssAnon:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

/**
 * A child's memory after two full collections a second apart: the first one's freed array buffers
 * are released on a background thread, and V8 returns free pages after a collection, not during it.
 */
async function memoryOf(server: ChildServer): Promise<Memory> {
  await serverMemory(server, { collect: true });
  await sleep(1000);
  const m = await serverMemory(server, { collect: true });
  return { heapUsed: m.heapUsed, external: m.external, rssAnon: rssAnon(server.pid) };
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
/** Memory at each step: no stream, all open, after the events, all closed. */
const memoryTimeline = (steps: Memory[]) =>
  `V8 heap ${steps.map((m) => mb(m.heapUsed)).join(" → ")} MB, external ` +
  `${steps.map((m) => mb(m.external)).join(" → ")} MB, private RSS ${steps.map((m) => mb(m.rssAnon)).join(" → ")} MB`;

/** Opens WATCHERS streams on each server, interleaved, OPEN_PER_SECOND each, and waits for all `ready`s. */
async function openAll(sides: { clients: Fleet; url: string; headers: (i: number) => Record<string, string> }[]) {
  const t0 = performance.now();
  for (let i = 0; i < WATCHERS; i++) {
    const due = t0 + (i * 1000) / OPEN_PER_SECOND;
    const now = performance.now();
    if (due > now) await sleep(due - now);
    for (const side of sides) side.clients.open(side.url, i, side.headers(i));
  }
  await Promise.all(sides.map((s) => s.clients.ready()));
  return (performance.now() - t0) / 1000;
}

/** From the request to the `ready` frame, per client (ms): p50 and p99. */
async function openTimes(clients: Fleet) {
  const t = sortedOf(await clients.openTimes());
  return `p50 ${ms1(quantile(t, 0.5))}, p99 ${ms1(quantile(t, 0.99))}`;
}

/**
 * After the runs: every client is still open and has every post of its server exactly once (each
 * duplicate, other event and closed stream was already recorded as a problem).
 */
async function checkExactlyOnce(clients: Fleet, postIds: string[]) {
  const { refused, wrong, problems } = await clients.check(postIds);
  if (refused || wrong || problems.length) {
    throw new Error(
      `${clients.name}: ${refused} streams refused, ${wrong} streams without exactly the ${postIds.length} events: ` +
        problems.join("; "),
    );
  }
}

export const realtime: Scenario = {
  name: "realtime",
  title: `Realtime: one post reaching ${int(WATCHERS)} SSE streams`,
  async run(opts) {
    // The harness holds both servers' clients; each server holds its own (and Hearth its database connections).
    const fdLimit = openFileLimit();
    // Each client process holds one server's streams, and each server its own.
    if (fdLimit < WATCHERS + 200) {
      throw new Error(`the open-file limit is ${fdLimit}: raise it (ulimit -n ${2 * WATCHERS}) before npm run bench`);
    }
    const t0 = performance.now();
    // --expose-gc: memory is read after a full collection (protocol.ts "memory:gc").
    const hearth = await startHearth({
      name: "realtime",
      nodeArgs: [...opts.serverNodeArgs, "--expose-gc"],
      sqlCount: true,
    });
    const startSeconds = (performance.now() - t0) / 1000;
    const baseline = await startSseBaseline("realtime", ["--expose-gc"]);
    const db = new pg.Client({ connectionString: await databaseUrl(hearth) });
    await db.connect();
    const hearthClients = new Fleet("Hearth", WATCHERS);
    const baselineClients = new Fleet("baseline", WATCHERS);
    try {
      const url = hearth.url;

      // The community: created by the demo owner through the API (public, no moderation).
      const ownerCookie = await signIn(url);
      const created = await fetch(`${url}/api/communities`, {
        method: "POST",
        headers: { cookie: ownerCookie, origin: url, "content-type": "application/json" },
        body: JSON.stringify({ name: "Bench realtime" }),
      });
      if (created.status !== 201) throw new Error(`creating the community answered ${created.status}`);
      const community = (await created.json()) as { id: string };
      const facts = (
        await db.query<{ visibility: string; moderation: boolean }>(
          "SELECT visibility, moderation_enabled AS moderation FROM communities WHERE id = $1",
          [community.id],
        )
      ).rows[0];
      if (facts.visibility !== "public" || facts.moderation) {
        throw new Error(`the community is ${facts.visibility}, moderation ${facts.moderation}`);
      }

      // The watchers: users with profiles, members of the community, each with one session.
      // Sign-in through the API costs an argon2id verify each (about 2,000 × 30–60 ms of CPU here),
      // so the session rows are inserted as Better Auth makes them, and each cookie is signed as
      // Better Auth signs it: `<token>.<base64 HMAC-SHA256(AUTH_SECRET, token)>`, URI-encoded.
      const setup0 = performance.now();
      const tokens = Array.from({ length: WATCHERS }, () => randomBytes(24).toString("base64url"));
      await db.query("BEGIN");
      await db.query(
        `INSERT INTO "user" (id, name, email, email_verified)
         SELECT md5('hearth-bench-realtime-user-' || n), 'Watcher ' || n, 'bench-realtime-' || n || '@bench.hearth.test', true
         FROM generate_series(1, $1::int) n`,
        [WATCHERS],
      );
      await db.query(
        `INSERT INTO user_profiles (user_id, username, full_name)
         SELECT md5('hearth-bench-realtime-user-' || n), 'watcher' || n, 'Watcher ' || n
         FROM generate_series(1, $1::int) n`,
        [WATCHERS],
      );
      await db.query(
        `INSERT INTO community_members (community_id, user_id, role)
         SELECT $1, md5('hearth-bench-realtime-user-' || n), 'member' FROM generate_series(1, $2::int) n`,
        [community.id, WATCHERS],
      );
      await db.query(
        `INSERT INTO session (id, token, user_id, expires_at, created_at, updated_at, ip_address, user_agent)
         SELECT md5('hearth-bench-realtime-session-' || n), t.token, md5('hearth-bench-realtime-user-' || n),
                now() + interval '30 days', now(), now(), '127.0.0.1', 'hearth-bench'
         FROM unnest($1::text[]) WITH ORDINALITY AS t(token, n)`,
        [tokens],
      );
      await db.query("COMMIT");
      const setupSeconds = (performance.now() - setup0) / 1000;
      const secret = authSecretOf(hearth.dataDir);
      const cookies = tokens.map((token) => sessionCookie(secret, token));
      const memberCount = (
        await db.query<{ n: number }>("SELECT member_count AS n FROM communities WHERE id = $1", [community.id])
      ).rows[0].n;
      // The cookies work: a few watchers are who they should be.
      for (const n of [1, 2, WATCHERS / 2, WATCHERS - 1, WATCHERS]) {
        const me = (await (await fetch(`${url}/api/me`, { headers: { cookie: cookies[n - 1] } })).json()) as {
          user: { email: string } | null;
        };
        if (me.user?.email !== `bench-realtime-${n}@bench.hearth.test`) {
          throw new Error(`watcher ${n}'s cookie signs in as ${JSON.stringify(me.user)}`);
        }
      }

      const idle = { hearth: await memoryOf(hearth), baseline: await memoryOf(baseline) };
      const snapshots = [await hearth.ask<string | null>("heap:snapshot", 600_000)];
      console.error(`  opening ${int(WATCHERS)} streams on each server, ${OPEN_PER_SECOND}/s`);
      const openSeconds = await openAll([
        {
          clients: hearthClients,
          url: `${url}/api/realtime/communities/${community.id}`,
          headers: (i) => ({ cookie: cookies[i] }),
        },
        { clients: baselineClients, url: `${baseline.url}/stream`, headers: () => ({}) },
      ]);
      const [openHearth, openBaseline] = await Promise.all([openTimes(hearthClients), openTimes(baselineClients)]);
      await sleep(SETTLE_MS);
      const open = { hearth: await memoryOf(hearth), baseline: await memoryOf(baseline) };
      snapshots.push(await hearth.ask<string | null>("heap:snapshot", 600_000));
      if (snapshots[0]) console.error(`  heap snapshots (no stream, all open): ${snapshots.join(" ")}`);
      console.error(`  all ${int(WATCHERS)} × 2 streams ready after ${openSeconds.toFixed(1)} s`);

      // The events. Hearth's: a text post by the owner (its answer carries the post id that the
      // frames name). The baseline's: a fresh uuid in the same frame.
      let postNumber = 0;
      const post = async () => {
        const res = await fetch(`${url}/api/communities/${community.id}/posts`, {
          method: "POST",
          headers: { cookie: ownerCookie, origin: url, "content-type": "application/json" },
          body: JSON.stringify({ content: `Realtime bench post ${++postNumber}` }),
        });
        const body = (await res.json()) as { id?: string };
        if (res.status !== 201 || !body.id) throw new Error(`the post answered ${res.status}: ${JSON.stringify(body)}`);
        return body.id;
      };
      const fire = async () => {
        const postId = randomUUID();
        const res = await fetch(`${baseline.url}/fire`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ event: "post_created", data: { type: "post_created", post_id: postId } }),
        });
        const body = (await res.json()) as { streams: number };
        if (res.status !== 200 || body.streams !== WATCHERS) {
          throw new Error(`the baseline fired to ${body.streams} streams (${res.status})`);
        }
        return postId;
      };
      const sql = sqlCounter(hearth);
      const runs: EventRun[] = [];
      const hearthEvent = async (kind: EventRun["kind"]) => {
        const run = await runEvent("hearth", kind, hearth, hearthClients, post, sql);
        runs.push(run);
        console.error(
          `  Hearth ${kind}: last client ${ms1(run.latencies[run.latencies.length - 1])}, ` +
            `p50 ${ms1(quantile(run.latencies, 0.5))}, ${run.statements} SQL statements`,
        );
      };
      const baselineEvent = async (kind: "baseline" | "warm-up") =>
        runs.push(await runEvent("baseline", kind, baseline, baselineClients, fire));

      // One warm-up event on each (the owner's first post also completes an onboarding task).
      await baselineEvent("warm-up");
      await hearthEvent("warm-up");
      for (let i = 0; i < EVENTS_PER_KIND; i++) {
        await sleep(COLD_GAP_MS);
        await baselineEvent("baseline");
        await hearthEvent("cold");
        await sleep(WARM_GAP_MS);
        await baselineEvent("baseline");
        await hearthEvent("warm");
      }
      await sleep(SETTLE_MS);
      const afterEvents = { hearth: await memoryOf(hearth), baseline: await memoryOf(baseline) };

      const postsOf = (side: EventRun["side"]) => runs.filter((r) => r.side === side).map((r) => r.postId);
      await checkExactlyOnce(hearthClients, postsOf("hearth"));
      await checkExactlyOnce(baselineClients, postsOf("baseline"));

      const rowsCount = (
        await db.query<{ n: number }>("SELECT count(*)::int AS n FROM realtime_events WHERE channel = $1", [
          `community:${community.id}`,
        ])
      ).rows[0].n;

      await Promise.all([hearthClients.close(), baselineClients.close()]);
      await sleep(CLOSED_SETTLE_MS);
      const closed = { hearth: await memoryOf(hearth), baseline: await memoryOf(baseline) };

      const cold = summarize(runs.filter((r) => r.kind === "cold"));
      const warm = summarize(runs.filter((r) => r.kind === "warm"));
      const base = summarize(runs.filter((r) => r.kind === "baseline"));
      const perConnection = (side: "hearth" | "baseline", key: keyof Memory) =>
        (open[side][key] - idle[side][key]) / WATCHERS;
      const heap = { hearth: perConnection("hearth", "heapUsed"), baseline: perConnection("baseline", "heapUsed") };
      const rss = { hearth: perConnection("hearth", "rssAnon"), baseline: perConnection("baseline", "rssAnon") };
      const timeline = (side: "hearth" | "baseline") =>
        memoryTimeline([idle[side], open[side], afterEvents[side], closed[side]]);
      const deliveriesPerSecond = (s: Summary) => WATCHERS / (s.lastMedian / 1000);
      const row = (label: string, s: Summary): ResultRow => ({
        endpoint: label,
        connections: WATCHERS,
        requestsPerSecond: deliveriesPerSecond(s),
        p50: s.p50,
        p99: s.p99,
        non2xx: hearthClients.refused,
        errors: 0,
        reference: { label: "bare node:http SSE", requestsPerSecond: deliveriesPerSecond(base) },
        heapPerConnection: { bytes: heap.hearth, baselineBytes: heap.baseline },
        heapPerConnectionGoalBytes: HEAP_GOAL_BYTES,
        p99GoalMs: P99_GOAL_MS,
      });
      const rows = [
        row(`post_created → ${int(WATCHERS)} member streams, ${COLD_GAP_MS / 1000} s after the last event`, cold),
        row(`post_created → ${int(WATCHERS)} member streams, ${WARM_GAP_MS / 1000} s after the last event`, warm),
      ];
      console.error(`  memory, Hearth: ${timeline("hearth")}`);
      console.error(`  memory, baseline: ${timeline("baseline")}`);
      const cpuCount = os.cpus().length;
      const cpuLine = (s: Summary, db: boolean) =>
        `${s.serverCpuMs.toFixed(0)} ms server CPU` +
        (db ? ` + ${s.pgCpuMs.toFixed(0)} ms PostgreSQL` : "") +
        `, ${s.harnessCpuMs.toFixed(0)} ms harness CPU`;
      const hearthLine = (name: string, s: Summary) =>
        `- Hearth, ${name}: ${describe(s)}; the POST answered in ${ms1(s.answerMedian)} (median); ` +
        `${int(s.statements ?? 0)} SQL statements sent in the window (median); ${cpuLine(s, true)} per event ` +
        `(median, /proc, 10 ms ticks). Against the baseline: p50 ${times(s.p50 / base.p50)}, p99 ` +
        `${times(s.p99 / base.p99)}, last client ${times(s.lastMedian / base.lastMedian)}.`;

      return {
        rows,
        notes: [
          `Goal (issue 23, item 6): 10,000 signed-in SSE streams on one process; one community event reaches ` +
            `all of them with p99 under ${P99_GOAL_MS} ms, the V8 heap is at most ${HEAP_GOAL_BYTES / 1024} KB per ` +
            `stream, no stream is refused, and memory returns after they close (this run: ${int(WATCHERS)} ` +
            `streams, BENCH_STREAMS). No ratio is set as a goal. In the table, req/s is deliveries per second: ${int(WATCHERS)} ÷ the time until the ` +
            `last client had the event (median over the events), so the ratio is the baseline's time to the ` +
            `last client ÷ Hearth's; p50 and p99 are over every client × event; heap/conn is the server ` +
            `process's V8 heap with the streams open minus before they opened, ÷ ${int(WATCHERS)}.`,
          `How it was measured: Hearth (production config, bundled PostgreSQL, demo seed, rate limits off: ` +
            `RATE_LIMITS=false in the child's config) and a bare \`node:http\` SSE server ` +
            `(bench/children/sse-baseline-server.ts: holds every stream and writes one frame to all of them ` +
            `in one loop on POST /fire, no access check, no database) each in their own child process; the ` +
            `${int(2 * WATCHERS)} clients in two harness processes (one per server, bench/children/sse-fleet.ts), ` +
            `each client a socket of its own speaking HTTP/1.1 (its chunked body decoded by hand, not by ` +
            `Node's HTTP client), parsing \`event:\`/\`data:\` blocks, on the same ${cpuCount} cores ` +
            `(open-file limit ${int(fdLimit)}, \`ulimit -n\`). The Hearth watchers are ${int(WATCHERS)} ` +
            `signed-in plain members of one public community (member_count ${int(memberCount)}); anonymous ` +
            `viewers are capped at ${DEFAULT_REALTIME_SETTINGS.maxStreamsPerAddress} streams per address. ` +
            `Their users, profiles, memberships and sessions were inserted with set-based SQL in ` +
            `${setupSeconds.toFixed(1)} s (sign-in through the API would cost one argon2id verify each) and ` +
            `each cookie signed as Better Auth signs it (HMAC-SHA256 of the token with the server's secret); ` +
            `GET /api/me with five of the cookies answered the right user, and every stream open was ` +
            `answered 200 as a signed-in stream. Streams were opened at ${OPEN_PER_SECOND}/s on each server, ` +
            `interleaved (under the hub's ${DEFAULT_REALTIME_SETTINGS.joinsPerSecond} new streams/s): ` +
            `${openSeconds.toFixed(1)} s until all ${int(2 * WATCHERS)} had their \`ready\` frame; from request ` +
            `to \`ready\`, Hearth ${openHearth}, baseline ${openBaseline}.`,
          `The event: Hearth's is a text post by the community's owner, \`POST /api/communities/:id/posts\` ` +
            `(its commit NOTIFYs the hub, which reads the event row and hands it to each stream, which ` +
            `checks the viewer's access, then writes \`id:\`, \`event: post_created\` and \`data: ` +
            `{"type":"post_created","post_id":…}\`); the baseline's is POST /fire with the same frame. A ` +
            `latency sample is the time from just before the POST was sent to the moment the harness read ` +
            `the frame from that client's socket, so it includes the harness's own queueing: ` +
            `${int(WATCHERS)} sockets becoming readable at once are read one after another on one event ` +
            `loop. Order: one warm-up event on each, then ${EVENTS_PER_KIND} times: ` +
            `${COLD_GAP_MS / 1000} s pause, a baseline event, a Hearth "cold" event, ${WARM_GAP_MS / 1000} s ` +
            `pause, a baseline event, a Hearth "warm" event. Hearth keeps each stream's access (per ` +
            `community, user and session) from the stream's opening on, until the database announces a ` +
            `change to that membership, the community or the session, or at most ${ACCESS_TTL_MS / 1000} s ` +
            `(the periodic re-check, every ${DEFAULT_REALTIME_SETTINGS.accessRecheckMs / 1000} s, reads the ` +
            `expired ones again): neither event reads access here (until 2026-11-27 an entry lived 5 s, so ` +
            `the "cold" event read nearly every watcher's again). The SQL statements the Hearth process ` +
            `sent during each event (the post's own included) show it. The baseline has no cache: its ${base.events} events are pooled for ` +
            `both rows' reference (BENCH_SECONDS and BENCH_ROUNDS do not apply: baseline and Hearth events ` +
            `alternate seconds apart instead). Node's HTTP responses cork their socket until the next tick, so in both ` +
            `servers the frames go out in one burst of ${int(WATCHERS)} socket writes once every stream's ` +
            `frame is queued: the first client's time includes the work of all the streams, and the spread ` +
            `from first to last client is mostly those writes and the harness reading them.`,
          [
            hearthLine(`${COLD_GAP_MS / 1000} s after the last event`, cold),
            hearthLine(`${WARM_GAP_MS / 1000} s after the last event`, warm),
            `- Baseline: ${describe(base)}; /fire answered in ${ms1(base.answerMedian)} (median); ` +
              `${cpuLine(base, false)} per event.`,
          ].join("\n"),
          `Memory per connection: each server's memory with no stream and with the ${int(WATCHERS)} open ` +
            `(${SETTLE_MS / 1000} s after the last was ready), each read after two full collections a second ` +
            `apart (\`--expose-gc\`), difference ÷ ${int(WATCHERS)}. V8 heap: Hearth ${kb(heap.hearth)} per ` +
            `stream, the baseline ${kb(heap.baseline)} (${times(heap.hearth / heap.baseline)}); external memory ` +
            `(buffers) did not change. Hearth's includes what a signed-in stream keeps: its request and reply ` +
            `objects, its session in the viewer cache, its access-cache entry, the hub subscription, the ` +
            `stream's delivery object and its rules. Private resident memory (RssAnon from /proc, RSS without mapped ` +
            `files): Hearth ${kb(rss.hearth)} per stream, the baseline ${kb(rss.baseline)}; not a reliable ` +
            `measure at this size: the Hearth process's private memory (${mb(idle.hearth.rssAnon)} MB with no ` +
            `stream, of which ${mb(idle.hearth.heapUsed)} MB V8 heap) can move by tens of MB as the allocator and V8 ` +
            `give memory back when they choose (between the open and after-the-events steps below its heap ` +
            `changed by ${mb(afterEvents.hearth.heapUsed - open.hearth.heapUsed)} MB and its private RSS by ` +
            `${mb(afterEvents.hearth.rssAnon - open.hearth.rssAnon)} MB). Each step ` +
            `(no stream → open → after the events → closed, ${CLOSED_SETTLE_MS / 1000} s after): Hearth ` +
            `${timeline("hearth")}; baseline ${timeline("baseline")}. After the close Hearth's heap is ` +
            `${mb(closed.hearth.heapUsed - idle.hearth.heapUsed)} MB above where it was with no stream ` +
            `(${kb((closed.hearth.heapUsed - idle.hearth.heapUsed) / WATCHERS)} per stream that was open): the ` +
            `access cache's entry of a stream goes when it closes, the session cache's expired entries are ` +
            `swept every 30 s.`,
          `Checked: every one of the ${int(WATCHERS)} clients of each server got every event of its server ` +
            `exactly once (${1 + 2 * EVENTS_PER_KIND} each), no other event (no resync), no stream was refused ` +
            `(no 429) or closed by the server; the community channel holds ${rowsCount} events in ` +
            `realtime_events. Hearth started in ${startSeconds.toFixed(1)} s.`,
        ],
      };
    } finally {
      hearthClients.stop();
      baselineClients.stop();
      await db.end().catch(() => {});
      await Promise.allSettled([hearth.stop(), baseline.stop()]);
    }
  },
};
