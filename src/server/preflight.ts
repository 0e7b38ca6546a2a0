import path from "node:path";
import { prepareRootPostgres } from "./db/root-postgres";
import { checkDataDir } from "./lib/data-dir";

/**
 * What `npm start` checks before the slow parts (the web build, loading the server): DATA_DIR, and run
 * as root, whether the postgres user can run the bundled PostgreSQL. A start that cannot work stops
 * within a second or two with one sentence (a StartError), not after the build.
 */
export async function preflight(log: { info: (m: string) => void }): Promise<void> {
  const dataDir = path.resolve(process.env.DATA_DIR?.trim() || "./data");
  checkDataDir(dataDir);
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (asRoot && !process.env.DATABASE_URL?.trim()) await prepareRootPostgres(dataDir, log);
}
