import type { FastifyBaseLogger } from "fastify";
import { mayViewPost } from "#shared/roles";
import type { PostVisibility, RealtimeMessage, SseFrame, SseStream } from "#server/lib/realtime";
import type { Access, AccessCache } from "./realtime.service";

type StreamEvent = { id: number; payload: Record<string, unknown> };

/** What a stream's route decides: whether the viewer may still watch, and what they are sent. */
export interface StreamRules {
  /**
   * Asked before an event when `allowedNow` cannot answer, and by the periodic re-check (`ahead`:
   * it may read again what would expire before the next one); false ends the stream.
   */
  allowed(ahead: boolean): Promise<boolean>;
  /** The answer of `allowed` when it is known without a read, else undefined. */
  allowedNow?(): boolean | undefined;
  /** What this viewer is sent for an event, or null for nothing. */
  frame(event: StreamEvent): Promise<SseFrame | null> | SseFrame | null;
  /** Called once the stream has ended. */
  closed?(): void;
}

const settled: Promise<void> = Promise.resolve();

/**
 * One open stream's delivery: the hub's messages are handled one after another (a pending access
 * check keeps their order), or handed over at once, without a promise, when nothing waits and the
 * access is known. One object per stream with its methods on the prototype: 10,000 streams a
 * process keep no dozen closures each (issue 23).
 */
export class LiveStream {
  private allowed = true;
  private chain = settled;
  private waiting = 0;

  constructor(
    readonly stream: SseStream,
    private readonly rules: StreamRules,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A message of the hub. */
  receive(message: RealtimeMessage): void {
    if (!this.deliverNow(message)) this.enqueue(() => this.handle(message));
  }

  /** The periodic re-check of an idle stream (all of a process's streams together). */
  recheck(): void {
    this.enqueue(() => this.check(true));
  }

  private async check(ahead: boolean) {
    if (!this.allowed) return;
    try {
      this.allowed = await this.rules.allowed(ahead);
    } catch (err) {
      // Without an answer nothing more is sent; the client reconnects and is checked afresh.
      this.log.warn({ err }, "realtime access check failed");
      this.allowed = false;
    }
    if (!this.allowed) this.stream.close();
  }

  private async handle(message: RealtimeMessage) {
    const { stream } = this;
    if (message.kind === "resync") return stream.resync(message.id);
    if (message.kind === "ready") return stream.send({ id: message.id, event: "ready", data: { type: "ready" } });
    await this.check(false);
    if (!this.allowed || stream.closed) return;
    const frame = await this.rules.frame(message);
    if (frame && !stream.closed) stream.send(frame);
  }

  private enqueue(job: () => Promise<void> | void) {
    if (++this.waiting > 1000) return this.stream.close();
    this.chain = this.chain
      .then(job)
      .catch((err) => this.log.error({ err }, "realtime delivery failed"))
      .finally(() => this.waiting--);
  }

  /** An event while nothing waits and the access is known: handed over now. False: it waits its turn. */
  private deliverNow(message: RealtimeMessage): boolean {
    const { rules, stream } = this;
    if (this.waiting > 0 || message.kind !== "event" || !this.allowed || !rules.allowedNow) return false;
    const known = rules.allowedNow();
    if (known === undefined) return false;
    if (!known) {
      this.allowed = false;
      stream.close();
      return true;
    }
    const frame = rules.frame(message);
    if (frame instanceof Promise) {
      this.enqueue(async () => {
        const ready = await frame;
        if (ready && !stream.closed) stream.send(ready);
      });
    } else if (frame && !stream.closed) {
      stream.send(frame);
    }
    return true;
  }
}

/** A post event as a frame, with the visibility that decides who gets it (made once per event). */
export type PostFrame = { id: number; frame: SseFrame; visibility: PostVisibility };

/**
 * A community stream's rules: the viewer's access (from the access cache, seeded with what the
 * opening read) decides which post events they get.
 */
export class CommunityStreamRules implements StreamRules {
  constructor(
    private readonly cache: AccessCache,
    private readonly settings: { readonly accessRecheckMs: number },
    private readonly postFrame: (event: StreamEvent) => PostFrame | null,
    private readonly communityId: string,
    private readonly userId: string | null,
    private readonly sessionId: string | null,
    private access: Access,
    /** The cache's mark taken before the opening read `access` (AccessCache.remember). */
    mark: number,
  ) {
    // What the opening just read answers the first events too, unless a change was announced since.
    cache.remember(communityId, userId, sessionId, access, mark);
  }

  async allowed(ahead: boolean): Promise<boolean> {
    this.access = await this.cache.read(
      this.communityId,
      this.userId,
      this.sessionId,
      ahead ? this.settings.accessRecheckMs : 0,
    );
    return this.access !== null;
  }

  allowedNow(): boolean | undefined {
    const known = this.cache.peek(this.communityId, this.userId, this.sessionId);
    if (known === undefined) return undefined;
    this.access = known;
    return known !== null;
  }

  frame(event: StreamEvent): SseFrame | null {
    const post = this.postFrame(event);
    return post && this.access && mayViewPost(this.access.role, post.visibility) ? post.frame : null;
  }

  /** Its memory goes with the stream; another stream of the same session reads it again. */
  closed(): void {
    this.cache.forget(this.communityId, this.userId, this.sessionId);
  }
}
