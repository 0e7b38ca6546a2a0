import pg from "pg";

type Log = { warn: (obj: unknown, msg?: string) => void };

/**
 * One dedicated connection per process for LISTEN. It reconnects by itself; after a reconnect the
 * `onReset` callbacks run, since notifications sent while it was away are lost.
 */
export class PgListener {
  private client: pg.Client | undefined;
  private readonly handlers = new Map<string, ((payload: string) => void)[]>();
  private readonly resets: (() => void)[] = [];
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private connected: Promise<void> | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly log: Log,
  ) {}

  on(channel: string, handler: (payload: string) => void): void {
    const list = this.handlers.get(channel) ?? [];
    list.push(handler);
    this.handlers.set(channel, list);
  }

  onReset(fn: () => void): void {
    this.resets.push(fn);
  }

  get isConnected(): boolean {
    return this.client !== undefined;
  }

  start(): Promise<void> {
    this.stopped = false;
    this.connected ??= this.connect(0);
    return this.connected;
  }

  private async connect(attempt: number): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.connectionString,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.removeAllListeners();
      client.end().catch(() => {});
      for (const fn of this.resets) fn();
      if (this.stopped) return;
      this.log.warn({ err }, "database listener connection lost; reconnecting");
      this.retry = setTimeout(() => void this.connect(1), 500);
      this.retry.unref();
    };
    try {
      await client.connect();
      client.on("notification", (n) => {
        for (const h of this.handlers.get(n.channel) ?? []) h(n.payload ?? "");
      });
      client.on("error", lost);
      client.on("end", () => lost());
      for (const channel of this.handlers.keys()) await client.query(`LISTEN "${channel.replaceAll('"', "")}"`);
      this.client = client;
      if (attempt > 0) for (const fn of this.resets) fn();
    } catch (err) {
      client.end().catch(() => {});
      if (this.stopped) return;
      const delay = Math.min(10_000, 250 * 2 ** Math.min(attempt, 6));
      this.log.warn({ err }, `database listener could not connect; retrying in ${delay} ms`);
      this.retry = setTimeout(() => void this.connect(attempt + 1), delay);
      this.retry.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
