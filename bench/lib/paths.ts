import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: everything the harness spawns runs from here. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BENCH_DIR = path.join(REPO_ROOT, "bench");
export const TMP_DIR = path.join(REPO_ROOT, ".tmp");
/** How every child runs TypeScript: as Hearth runs in production (scripts/loader.mjs). */
export const TS_LOADER = path.join(REPO_ROOT, "scripts", "loader.mjs");
export const PERFORMANCE_DOC = path.join(REPO_ROOT, "docs", "performance.md");
