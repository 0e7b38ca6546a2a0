import type { OutgoingHttpHeaders } from "node:http";
import type { ServerResponse } from "node:http";
import type { FastifyReply } from "fastify";

export type SseFrame = { id?: number | null; event: string; data: unknown };

export type SseOptions = {
  maxPerSecond: number;
  heartbeatMs: number;
  /** Reconnection delay the browser is told to use; a random spread avoids reconnect storms. */
  retryMs?: number;
  /** A client this far behind (bytes not yet taken by the socket) is dropped; it will reconnect. */
  maxBufferedBytes?: number;
};

/**
 * One SSE response. Takes over the reply (`reply.hijack()`), so it must be opened after every
 * check that may still answer with an error. Frames beyond `maxPerSecond` wait (up to one more
 * second's worth); past that, everything waiting is replaced by a single `resync` frame carrying
 * the newest id, so nothing is lost silently: the client refetches instead.
 */
export class SseStream {
  private readonly res: ServerResponse;
  private readonly sentAt: number[] = [];
  private queue: SseFrame[] = [];
  /** A pending resync that replaces everything before it; `id` is the newest id it stands for. */
  private overflow: { id: number | null } | null = null;
  private timer: NodeJS.Timeout | undefined;
  /** When the next heartbeat is due (Date.now() ms); one ticker serves every stream (see beating). */
  private nextBeatAt: number;
  private readonly closeHandlers: (() => void)[] = [];
  private ended = false;

  constructor(
    reply: FastifyReply,
    private readonly opts: SseOptions,
  ) {
    // The headers set so far (the security headers of every answer) go with the stream's own.
    const earlier = reply.getHeaders() as OutgoingHttpHeaders;
    reply.hijack();
    this.res = reply.raw;
    this.res.writeHead(200, {
      ...earlier,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    });
    // Node keeps a response's header block (its private `_header`) for as long as the response
    // lives, as the rope of strings it was concatenated from (about 70 pieces with the security
    // headers); a stream lives for hours. Reading one character makes V8 flatten the rope into one
    // string (issue 23: about 1.5 KB less per stream). Nothing depends on it but memory.
    const head = (this.res as { _header?: unknown })._header;
    if (typeof head === "string") head.charCodeAt(0);
    reply.request.raw.socket?.setNoDelay(true);
    this.res.write(`retry: ${Math.round(opts.retryMs ?? 2000 + Math.random() * 4000)}\n\n`);
    this.res.on("close", () => this.cleanup());
    this.nextBeatAt = Date.now() + opts.heartbeatMs;
    startBeating(this);
  }

  /** Writes a heartbeat comment when one is due (the ticker asks every HEARTBEAT_TICK_MS). */
  beatIfDue(now: number): void {
    if (now < this.nextBeatAt) return;
    this.nextBeatAt = now + this.opts.heartbeatMs;
    this.write(PING);
  }

  get closed(): boolean {
    return this.ended;
  }

  onClose(fn: () => void): void {
    if (this.ended) fn();
    else this.closeHandlers.push(fn);
  }

  send(frame: SseFrame): void {
    if (this.ended) return;
    if (this.overflow) {
      if (frame.id != null) this.overflow.id = frame.id;
    } else if (this.queue.length === 0 && this.mayWriteNow()) {
      this.writeFrame(frame);
    } else if (this.queue.length < this.opts.maxPerSecond) {
      this.queue.push(frame);
    } else {
      this.overflow = { id: frame.id ?? this.newestQueuedId() };
      this.queue = [];
    }
    this.scheduleDrain();
  }

  /** Asks the client to refetch; replaces whatever is still waiting. */
  resync(id: number | null): void {
    if (this.ended) return;
    const newest = id ?? this.overflow?.id ?? this.newestQueuedId();
    this.queue = [];
    this.overflow = { id: newest };
    this.drain();
    this.scheduleDrain();
  }

  close(): void {
    if (this.ended) return;
    this.res.end();
    this.cleanup();
  }

  private newestQueuedId(): number | null {
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i].id != null) return this.queue[i].id ?? null;
    return null;
  }

  private mayWriteNow(): boolean {
    return this.sentAt.length < this.opts.maxPerSecond || Date.now() - this.sentAt[0] >= 1000;
  }

  private drain() {
    while (!this.ended && (this.overflow || this.queue.length > 0) && this.mayWriteNow()) {
      if (this.overflow) {
        const { id } = this.overflow;
        this.overflow = null;
        this.writeFrame({ id, event: "resync", data: { type: "resync" } });
      } else {
        this.writeFrame(this.queue.shift() as SseFrame);
      }
    }
  }

  private scheduleDrain() {
    if (this.timer || this.ended || (!this.overflow && this.queue.length === 0)) return;
    const wait = Math.max(0, this.sentAt[0] + 1000 - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.drain();
      this.scheduleDrain();
    }, wait);
    this.timer.unref();
  }

  private writeFrame(frame: SseFrame) {
    const now = Date.now();
    this.sentAt.push(now);
    if (this.sentAt.length > this.opts.maxPerSecond) this.sentAt.shift();
    this.write(encoded(frame));
  }

  /**
   * Writes straight to the socket, framed as the response's body expects (HTTP/1.1's chunks, or
   * raw bytes until the close), with the bytes made once for every stream (`encoded`). `res.write`
   * would queue four pieces a stream (the chunk's length, a line end, the text, a line end) on a
   * socket it corks until the next tick, then encode the text again for each socket: for one event
   * handed to 10,000 streams, most of the process's work (issue 23, item 6). The headers and the
   * first line went through the response, so its state stays true; `close` ends it as usual.
   */
  private write(piece: Piece) {
    if (this.ended) return;
    const socket = this.res.socket;
    if (socket) {
      if (socket.destroyed || socket.writableEnded) return;
      socket.write(this.res.chunkedEncoding ? piece.chunk : piece.raw);
    } else {
      // Not on its socket yet (an earlier answer on the same connection is still going): the
      // response keeps it, framed, until the socket is its own.
      this.res.write(piece.raw);
    }
    if (this.res.writableLength > (this.opts.maxBufferedBytes ?? 256 * 1024)) this.close();
  }

  private cleanup() {
    if (this.ended) return;
    this.ended = true;
    stopBeating(this);
    if (this.timer) clearTimeout(this.timer);
    this.queue = [];
    this.overflow = null;
    for (const fn of this.closeHandlers.splice(0)) {
      try {
        fn();
      } catch {
        // a close handler must not stop the others
      }
    }
  }
}

/**
 * The open streams, and one ticker that writes each its heartbeat when due: a timer of its own
 * would cost each stream about 200 bytes more (issue 23: 10,000 streams a process). Heartbeats stay
 * spread over time as the streams' openings were.
 */
const beating = new Set<SseStream>();
let ticker: NodeJS.Timeout | undefined;
const HEARTBEAT_TICK_MS = 1000;

function startBeating(stream: SseStream) {
  beating.add(stream);
  ticker ??= setInterval(() => {
    const now = Date.now();
    for (const s of beating) s.beatIfDue(now);
  }, HEARTBEAT_TICK_MS).unref();
}

function stopBeating(stream: SseStream) {
  beating.delete(stream);
  if (beating.size === 0 && ticker) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

/** A piece of the stream, as bytes: framed as an HTTP/1.1 chunk, and raw (a body without chunks). */
type Piece = { chunk: Buffer; raw: Buffer };

function piece(text: string): Piece {
  const raw = Buffer.from(text, "utf8");
  return { raw, chunk: Buffer.concat([Buffer.from(`${raw.length.toString(16)}\r\n`, "latin1"), raw, CRLF]) };
}

const CRLF = Buffer.from("\r\n", "latin1");
const PING = piece(": ping\n\n");

/** The last frame written and its bytes: one event handed to many streams is encoded once. */
let lastFrame: { frame: SseFrame; piece: Piece } | null = null;

function encoded(frame: SseFrame): Piece {
  if (lastFrame?.frame === frame) return lastFrame.piece;
  const id = frame.id != null ? `id: ${frame.id}\n` : "";
  const made = piece(`${id}event: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`);
  lastFrame = { frame, piece: made };
  return made;
}

/** A Last-Event-ID value as an event id, or null when absent or not one. */
export function parseEventId(value: unknown): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (typeof raw !== "string" || !/^\d{1,15}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}
