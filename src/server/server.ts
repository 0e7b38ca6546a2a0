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

/**
 * The cluster primary's part (src/server/cluster.ts): the database started (bundled) or reached,
 * migrated and seeded once, before any worker serves. Returns its address for the workers.
 */
export async function prepareDatabase(config: Config, log: Log): Promise<{ url: string; stop: () => Promise<void> }> {
  let releaseLock: (() => void) | undefined;
  let embedded: EmbeddedDatabase | undefined;
  let database: Database | undefined;
  try {
    let url = config.databaseUrl;
    if (!url) {
      releaseLock = acquireDataDirLock(config.dataDir);
      embedded = await startEmbeddedPostgres(config.dataDir, log, { statStatements: config.pgStatStatements });
      url = embedded.url;
    }
    database = connectDatabase(url, { max: 2, onError: (err) => log.warn(`database: ${err.message}`) });
    await migrateDatabase(database.pool);
    if (config.seedDemo) await seedDemo({ db: database.db, storage: await createStorage(config), log });
    await database.close();
    return {
      url,
      stop: async () => {
        await embedded?.stop();
        releaseLock?.();
      },
    };
  } catch (err) {
    await database?.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    releaseLock?.();
    throw err;
  }
}

/**
 * Starts everything: the database (bundled or external), migrations, demo seed, HTTP. A cluster
 * worker (`databaseReady`) finds the database its primary prepared at config.databaseUrl and only
 * serves.
 */
export async function startServer(
  config: Config,
  opts: { log: Log; logger?: FastifyServerOptions["logger"]; databaseReady?: boolean },
): Promise<RunningServer> {
  const { log } = opts;
  const url = config.databaseUrl;
  if (opts.databaseReady && !url) throw new Error("a cluster worker needs the database address from its primary");
  const prepared = opts.databaseReady ? { url: url!, stop: async () => {} } : await prepareDatabase(config, log);
  let database: Database | undefined;
  let app: HearthApp | undefined;
  try {
    database = connectDatabase(prepared.url, {
      max: config.databasePoolSize,
      onError: (err) => log.warn(`database: ${err.message}`),
    });
    // The same storage the seed wrote the demo's icons and covers to.
    const storage = await createStorage(config);
    app = await buildApp({ config, database, storage, logger: opts.logger });
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    const db = database;
    const running = app;
    let stopping: Promise<void> | undefined;
    return {
      app: running,
      database: db,
      url: `http://${config.host === "0.0.0.0" ? "127.0.0.1" : config.host}:${port}`,
      stop: () =>
        (stopping ??= (async () => {
          // Readiness fails first, so a load balancer sends new requests elsewhere before the port closes.
          beginDraining(running.ctx);
          if (config.shutdownDrainMs > 0) await new Promise((r) => setTimeout(r, config.shutdownDrainMs));
          await running.close();
          await db.close();
          await prepared.stop();
        })()),
    };
  } catch (err) {
    // Its job runner and listener stop before the database they use.
    await app?.close().catch(() => {});
    await database?.close().catch(() => {});
    await prepared.stop().catch(() => {});
    throw err;
  }
}
