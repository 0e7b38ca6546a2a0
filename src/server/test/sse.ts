import http from "node:http";
import { ORIGIN } from "./harness";

export type SseFrame = { id: string | null; event: string; data: Record<string, unknown>; at: number };
export type SseClient = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  frames: SseFrame[];
  /** Comment lines (heartbeats), without their colon. */
  comments: string[];
  ended: boolean;
  /** The first frame (from index `from`) matching, within the time limit. */
  next: (match: (f: SseFrame) => boolean, opts?: { from?: number; ms?: number }) => Promise<SseFrame>;
  close: () => void;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An SSE response read over a real HTTP connection (inject() does not stream). */
export async function connectSse(
  url: string,
  opts: { cookie?: string; lastEventId?: string | number } = {},
): Promise<SseClient> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.get(url, {
      agent: false,
      headers: {
        accept: "text/event-stream",
        origin: ORIGIN,
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
        ...(opts.lastEventId !== undefined ? { "last-event-id": String(opts.lastEventId) } : {}),
      },
    });
    req.on("response", resolve);
    req.on("error", reject);
  });
  const stream: SseClient = {
    status: res.statusCode ?? 0,
    headers: res.headers,
    body: "",
    frames: [],
    comments: [],
    ended: false,
    close: () => res.destroy(),
    next: async (match, { from = 0, ms = 3_000 } = {}) => {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = stream.frames.slice(from).find(match);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`no matching frame within ${ms} ms: ${JSON.stringify(stream.frames)}`);
        await sleep(10);
      }
    },
  };
  res.setEncoding("utf8");
  if (stream.status !== 200) {
    for await (const chunk of res) stream.body += chunk;
    stream.ended = true;
    return stream;
  }
  let buf = "";
  res.on("data", (chunk: string) => {
    buf += chunk;
    let end: number;
    while ((end = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      const frame: SseFrame = { id: null, event: "message", data: {}, at: Date.now() };
      let hasData = false;
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) {
          stream.comments.push(line.slice(1).trim());
          continue;
        }
        const [field, ...rest] = line.split(":");
        const value = rest.join(":").replace(/^ /, "");
        if (field === "id") frame.id = value;
        if (field === "event") frame.event = value;
        if (field === "data") {
          frame.data = JSON.parse(value);
          hasData = true;
        }
      }
      if (hasData) stream.frames.push(frame);
    }
  });
  res.on("close", () => (stream.ended = true));
  return stream;
}
