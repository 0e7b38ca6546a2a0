import { isClusterWorker, runPrimary, tellPrimary } from "./cluster";
import { ConfigError, dataDirFromEnv, loadConfig } from "./config";
import { DataDirInUseError } from "./db/embedded";
import { outboxStartupLine } from "./features/dev/outbox";
import { checkDataDir } from "./lib/data-dir";
import { StartError } from "./lib/start-error";
import { startServer } from "./server";

const started = Date.now();
const log = {
  info: (m: string) => console.log(`[hearth] ${m}`),
  warn: (m: string) => console.warn(`[hearth] ${m}`),
  error: (m: string) => console.error(`[hearth] ${m}`),
};

async function main() {
  let config;
  try {
    // Before the config writes the generated secret into it: a bad DATA_DIR is one sentence, not a stack.
    checkDataDir(dataDirFromEnv());
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      log.error(err.message);
      process.exit(78);
    }
    if (err instanceof StartError) {
      log.error(err.message);
      process.exit(err.exitCode);
    }
    throw err;
  }
  const exitCodeOf = (err: unknown): number | null => {
    if (err instanceof DataDirInUseError) {
      log.error(err.message);
      return 75;
    }
    if (err instanceof StartError) {
      log.error(err.message);
      return err.exitCode;
    }
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
      log.error(
        `Port ${config.port} is already in use by another program (or another Hearth): stop it, or start on a free port, e.g. PORT=${config.port + 1} npm start.`,
      );
      return 98;
    }
    return null;
  };

  // The bundled PostgreSQL package stops its databases on SIGINT/SIGTERM by itself and exits: that
  // would cut the database from under requests in flight and from the readiness drain. Hearth's own
  // shutdown stops it last, so its handlers replace the package's.
  const onSignals = (shutdown: (signal: string) => Promise<void>) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.removeAllListeners(signal);
    process.on("SIGINT", () => void shutdown("SIGINT"));
    process.on("SIGTERM", () => void shutdown("SIGTERM"));
  };

  if (config.workers > 1 && !isClusterWorker()) {
    const primary = await runPrimary(config, log, exitCodeOf, onSignals);
    log.info(
      `Hearth is running at ${config.publicUrl} (listening on ${primary.url} with ${config.workers} workers, started in ${Date.now() - started} ms)`,
    );
    const outbox = outboxStartupLine(config, primary.url);
    log[outbox.level](outbox.text);
    return;
  }

  // A worker stopped before it serves (its primary stopping while it boots) just exits: its primary
  // prepared the database and nothing is in flight. Once it serves, the same signals shut it down.
  let stopWorker: ((signal: string) => Promise<void>) | null = null;
  if (isClusterWorker()) {
    onSignals(async (signal) => (stopWorker ? stopWorker(signal) : process.exit(0)));
    // A worker whose primary is gone stops too.
    process.on("disconnect", () => void (stopWorker ? stopWorker("disconnect") : process.exit(0)));
  }

  let server;
  try {
    server = await startServer(config, { log, logger: { level: config.logLevel }, databaseReady: isClusterWorker() });
  } catch (err) {
    const code = exitCodeOf(err);
    if (code === null) throw err;
    process.exit(code);
  }
  if (isClusterWorker()) {
    tellPrimary({ hearth: "listening", url: server.url });
  } else {
    log.info(
      `Hearth is running at ${config.publicUrl} (listening on ${server.url}, started in ${Date.now() - started} ms)`,
    );
    const outbox = outboxStartupLine(config, server.url);
    log[outbox.level](outbox.text);
  }

  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    if (!isClusterWorker()) log.info(`${signal} received, shutting down`);
    const force = setTimeout(() => {
      log.error("Shutdown took too long; exiting");
      process.exit(1);
    }, 20_000 + config.shutdownDrainMs);
    force.unref();
    try {
      await server.stop();
      if (!isClusterWorker()) log.info("Stopped cleanly");
      process.exit(0);
    } catch (err) {
      log.error(`Shutdown failed: ${(err as Error).message}`);
      process.exit(1);
    }
  };
  if (isClusterWorker()) stopWorker = shutdown;
  else onSignals(shutdown);
}

main().catch((err) => {
  log.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
