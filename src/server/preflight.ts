import { dataDirFromEnv, hasExternalDatabase } from "./config";
import { prepareRootPostgres } from "./db/root-postgres";
import { checkDataDir } from "./lib/data-dir";

/**
 * What `npm start` checks before the slow parts (the web build, loading the server): DATA_DIR, and run
 * as root, whether the postgres user can run the bundled PostgreSQL. A start that cannot work stops
 * within a second or two with one sentence (a StartError), not after the build.
 */
export async function preflight(log: { info: (m: string) => void }): Promise<void> {
  const dataDir = dataDirFromEnv();
  checkDataDir(dataDir);
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (asRoot && !hasExternalDatabase()) await prepareRootPostgres(dataDir, log);
}
