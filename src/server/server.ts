import type { FastifyServerOptions } from "fastify";
import { buildApp, type HearthApp } from "./app";
import type { Config } from "./config";
import { connectDatabase, type Database } from "./db/client";
import { acquireDataDirLock, startEmbeddedPostgres, type EmbeddedDatabase } from "./db/embedded";
import { migrateDatabase } from "./db/migrate";
import { beginDraining } from "./features/health/readiness";
import { createStorage } from "./lib/storage";
import { seedDemo } from "./seed/seed";

export type RunningServer = { app: HearthApp; database: Database; url: string; stop: () => Promise<void> };

type Log = { info: (m: string) => void; warn: (m: string) => void; error: (m: string) => void };

/** Starts everything: the database (bundled or external), migrations, demo seed, HTTP. */
export async function startServer(
  config: Config,
  opts: { log: Log; logger?: FastifyServerOptions["logger"] },
): Promise<RunningServer> {
  const { log } = opts;
  let releaseLock: (() => void) | undefined;
  let embedded: EmbeddedDatabase | undefined;
  let database: Database | undefined;
  try {
    let url = config.databaseUrl;
    if (!url) {
      releaseLock = acquireDataDirLock(config.dataDir);
      embedded = await startEmbeddedPostgres(config.dataDir, log);
      url = embedded.url;
    }
    database = connectDatabase(url, {
      max: config.databasePoolSize,
      onError: (err) => log.warn(`database: ${err.message}`),
    });
    await migrateDatabase(database.pool);
    // One storage for the seed and the app: the demo's icons and covers are served from where the seed put them.
    const storage = await createStorage(config);
    if (config.seedDemo) await seedDemo({ db: database.db, storage, log });
    const app = await buildApp({ config, database, storage, logger: opts.logger });
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    const db = database;
    let stopping: Promise<void> | undefined;
    return {
      app,
      database: db,
      url: `http://${config.host === "0.0.0.0" ? "127.0.0.1" : config.host}:${port}`,
      stop: () =>
        (stopping ??= (async () => {
          // Readiness fails first, so a load balancer sends new requests elsewhere before the port closes.
          beginDraining(app.ctx);
          if (config.shutdownDrainMs > 0) await new Promise((r) => setTimeout(r, config.shutdownDrainMs));
          await app.close();
          await db.close();
          await embedded?.stop();
          releaseLock?.();
        })()),
    };
  } catch (err) {
    await database?.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    releaseLock?.();
    throw err;
  }
}
