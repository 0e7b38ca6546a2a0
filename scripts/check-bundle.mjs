// The web's JavaScript budget (issue 9): what a first visit to a page downloads (the app's entry,
// the page's route chunk and everything they import statically), gzipped, must stay under
// BUDGET_BYTES. Builds the web (with Vite's manifest), prints each page's figure, exits 1 if any
// page is over.
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const BUDGET_BYTES = 150 * 1024;
// Each page: its route module, plus the parts it loads on arrival with a dynamic import (a
// member's community home loads beside the community's data, so it counts for that view).
const PAGES = {
  "/ (directory)": ["src/web/app/routes/home.tsx"],
  "/community/:id (visitor)": [
    "src/web/app/routes/community.tsx",
    "src/web/features/community/components/community-landing.tsx",
  ],
  "/community/:id (member)": [
    "src/web/app/routes/community.tsx",
    "src/web/features/community/components/community-home.tsx",
  ],
  "/post/:id": ["src/web/app/routes/post.tsx"],
  "/free-trial": ["src/web/app/routes/free-trial.tsx"],
  "/signup": ["src/web/app/routes/signup.tsx"],
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist/web");
const build = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"],
  { cwd: root, stdio: "inherit" },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const manifest = JSON.parse(readFileSync(path.join(dist, ".vite/manifest.json"), "utf8"));
// Manifest keys are relative to Vite's root (src/web).
const key = (file) => path.relative(path.join(root, "src/web"), path.join(root, file));
const gzipped = new Map();
const sizeOf = (file) => {
  if (!gzipped.has(file)) {
    const full = path.join(dist, file);
    let size;
    try {
      size = statSync(`${full}.gz`).size;
    } catch {
      size = zlib.gzipSync(readFileSync(full), { level: 9 }).length;
    }
    gzipped.set(file, size);
  }
  return gzipped.get(file);
};
/** The JS files an entry loads before it runs: itself and its static imports, transitively. */
function closure(entryKey, seen = new Set()) {
  const chunk = manifest[entryKey];
  if (!chunk) throw new Error(`${entryKey} is not in the build manifest`);
  if (seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, seen);
  return seen;
}

const entry = closure("index.html");
let over = 0;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`First-visit JavaScript per page, gzip (budget ${kb(BUDGET_BYTES)}):`);
for (const [page, modules] of Object.entries(PAGES)) {
  const files = new Set(entry);
  for (const file of modules) closure(key(file), files);
  const total = [...files].filter((f) => f.endsWith(".js")).reduce((sum, f) => sum + sizeOf(f), 0);
  const ok = total <= BUDGET_BYTES;
  if (!ok) over++;
  console.log(`  ${ok ? "ok  " : "OVER"} ${page.padEnd(26)} ${kb(total).padStart(9)}  (${files.size} files)`);
}
process.exit(over > 0 ? 1 : 0);
