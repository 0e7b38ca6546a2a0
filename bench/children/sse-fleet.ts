/**
 * A fleet of SSE clients in a process of its own (scenarios/realtime.ts starts one per server):
 * 10,000 streams on each of two servers are more sockets than one process may open (`ulimit -n`),
 * and each fleet reading its own sockets on its own event loop keeps one side's burst from delaying
 * the other's reads.
 *
 * Each client is a socket of its own speaking HTTP/1.1 (`open`), parsing `event:`/`data:` blocks
 * as they arrive and stamping each `post_created` with the system's monotonic clock
 * (`process.hrtime`, shared by every process of the machine) when its chunk is read. Every post id
 * must reach every client exactly once; anything else (another status, a duplicate, a resync or
 * other event, a stream the server closes) is recorded as a problem and fails the run.
 *
 * The parent sends `{ id?, type, … }` over IPC (FleetProcess in scenarios/realtime.ts): "init"
 * (name, count), "open" (url, index, headers; no answer), and, answered with `{ id, reply }` or
 * `{ id, error }`: "ready", "delivered" (postId → the clients' receipt times), "openTimes", "check"
 * (postIds), "cpu", "close".
 */
import net from "node:net";
import { monotonicMs } from "../lib/clock";

const READY_TIMEOUT_MS = 60_000;
const DELIVERY_TIMEOUT_MS = 30_000;

type Conn = { seen: Set<string>; openedAt: number; readyAt?: number; closed: boolean; socket?: net.Socket };

let name = "fleet";
let count = 0;
const conns: Conn[] = [];
/** Receipt times of each post id, one per client. */
const arrivals = new Map<string, number[]>();
const waiting = new Map<string, () => void>();
const problems: string[] = [];
let refused = 0;
let ready = 0;
let stopping = false;
let allReady: (() => void) | undefined;

const problem = (text: string) => {
  if (problems.length < 10) problems.push(text);
  else if (problems.length === 10) problems.push("…");
};

function onBlock(conn: Conn, index: number, block: string, at: number) {
  let event = "message";
  let data = "";
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue; // comment (heartbeat)
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + (line[colon + 1] === " " ? 2 : 1));
    if (field === "event") event = value;
    else if (field === "data") data = data ? `${data}\n${value}` : value;
  }
  if (!data) return; // the retry: block
  if (event === "ready") {
    if (conn.readyAt !== undefined) problem(`${name} stream ${index}: a second ready`);
    conn.readyAt = at;
    if (++ready === count) allReady?.();
    return;
  }
  if (event !== "post_created") {
    problem(`${name} stream ${index}: unexpected ${event} ${data}`);
    return;
  }
  const postId = (JSON.parse(data) as { post_id: string }).post_id;
  if (conn.seen.has(postId)) {
    problem(`${name} stream ${index}: post ${postId} twice`);
    return;
  }
  conn.seen.add(postId);
  let list = arrivals.get(postId);
  if (!list) arrivals.set(postId, (list = []));
  list.push(at);
  if (list.length === count) waiting.get(postId)?.();
}

/**
 * One client: a plain socket speaking HTTP/1.1 (a GET, then the answer's head and its chunked body
 * decoded here). Node's HTTP client would parse every chunk through its parser and a response
 * stream: on these shared cores that reading, for 10,000 sockets at once, delayed the last client
 * more than the servers' own writes did.
 */
function open(url: string, index: number, headers: Record<string, string>) {
  const conn: Conn = { seen: new Set(), openedAt: monotonicMs(), closed: false };
  conns.push(conn);
  const target = new URL(url);
  const socket = net.connect(Number(target.port), target.hostname);
  conn.socket = socket;
  socket.setEncoding("latin1"); // one character a byte: chunk sizes count characters
  const head = Object.entries({ host: target.host, accept: "text/event-stream", ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\n${head}\r\n`);
  let input = "";
  let answered = false;
  /** Bytes still due of the chunk being read (-1: its size line comes next). */
  let due = -1;
  let body = "";
  socket.on("data", (chunk: string) => {
    const at = monotonicMs();
    input += chunk;
    if (!answered) {
      const endOfHead = input.indexOf("\r\n\r\n");
      if (endOfHead < 0) return;
      const status = Number(input.slice(9, 12));
      const answerHead = input.slice(0, endOfHead).toLowerCase();
      input = input.slice(endOfHead + 4);
      answered = true;
      if (status !== 200) {
        refused++;
        problem(
          `${name} stream ${index} answered ${status} (${/retry-after: *(\S+)/.exec(answerHead)?.[1] ?? "no retry-after"})`,
        );
        socket.destroy();
        return;
      }
      if (!answerHead.includes("transfer-encoding: chunked")) {
        problem(`${name} stream ${index}: not a chunked answer`);
        socket.destroy();
        return;
      }
    }
    for (;;) {
      if (due < 0) {
        const endOfSize = input.indexOf("\r\n");
        if (endOfSize < 0) break;
        due = parseInt(input.slice(0, endOfSize), 16);
        input = input.slice(endOfSize + 2);
        if (due === 0) {
          socket.destroy();
          return;
        }
      }
      if (input.length < due + 2) break;
      body += input.slice(0, due);
      input = input.slice(due + 2);
      due = -1;
    }
    for (let end = body.indexOf("\n\n"); end >= 0; end = body.indexOf("\n\n")) {
      const block = body.slice(0, end);
      body = body.slice(end + 2);
      onBlock(conn, index, block, at);
    }
  });
  socket.on("close", () => {
    conn.closed = true;
    if (!stopping && answered) problem(`${name} stream ${index} was closed by the server`);
  });
  socket.on("error", (err) => {
    if (!stopping) problem(`${name} stream ${index}: ${err.message}`);
  });
}

const whenReady = () =>
  new Promise<void>((resolve, reject) => {
    if (ready === count) return resolve();
    const timer = setTimeout(
      () => reject(new Error(`${name}: ${ready} of ${count} streams ready: ${problems.join("; ")}`)),
      READY_TIMEOUT_MS,
    );
    allReady = () => {
      clearTimeout(timer);
      resolve();
    };
  });

const whenDelivered = (postId: string) =>
  new Promise<number[]>((resolve, reject) => {
    const done = () => resolve(arrivals.get(postId)!);
    if ((arrivals.get(postId)?.length ?? 0) >= count) return done();
    const timer = setTimeout(() => {
      waiting.delete(postId);
      reject(
        new Error(
          `${name}: ${arrivals.get(postId)?.length ?? 0} of ${count} streams got post ${postId} within ` +
            `${DELIVERY_TIMEOUT_MS / 1000} s: ${problems.join("; ") || "no other problem seen"}`,
        ),
      );
    }, DELIVERY_TIMEOUT_MS);
    waiting.set(postId, () => {
      clearTimeout(timer);
      waiting.delete(postId);
      done();
    });
  });

/** Every client still open with exactly the posts `postIds`; what is wrong otherwise. */
function check(postIds: string[]) {
  const fired = new Set(postIds);
  const wrong = conns.filter(
    (c) => c.closed || c.seen.size !== fired.size || [...c.seen].some((id) => !fired.has(id)),
  ).length;
  return { refused, wrong, problems };
}

type Message = { id?: number; type: string; [key: string]: unknown };

const handlers: Record<string, (m: Message) => unknown> = {
  init: (m) => {
    name = m.name as string;
    count = m.count as number;
    return null;
  },
  ready: () => whenReady(),
  delivered: (m) => whenDelivered(m.postId as string),
  openTimes: () => conns.map((c) => c.readyAt! - c.openedAt),
  check: (m) => check(m.postIds as string[]),
  cpu: () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  },
  close: () => {
    stopping = true;
    for (const c of conns) c.socket?.destroy();
    return null;
  },
};

process.on("message", (m: Message) => {
  if (m.type === "open") return open(m.url as string, m.index as number, m.headers as Record<string, string>);
  const handler = handlers[m.type];
  void Promise.resolve()
    .then(() => (handler ? handler(m) : Promise.reject(new Error(`unknown message ${m.type}`))))
    .then(
      (reply) => process.send?.({ id: m.id, reply }),
      (err: unknown) => process.send?.({ id: m.id, error: err instanceof Error ? err.message : String(err) }),
    );
});
// The parent gone: nothing to measure for.
process.on("disconnect", () => process.exit(0));
