// `npm start`: builds the web app when it is missing or older than its sources, then runs the server.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Before anything that needs a newer Node: one sentence, not a syntax error from deep in a dependency.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(
    `[hearth] Hearth needs Node.js 20.19 or newer and this is ${process.versions.node}: install Node.js 24 LTS (https://nodejs.org/en/download, or nvm install 24), then run npm start again.`,
  );
  process.exit(1);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
await import("./loader.mjs");

// DATA_DIR and, as root, the bundled PostgreSQL's reach: checked before the build, so a start that
// cannot work says why within a second or two.
const { preflight } = await import(path.join(root, "src/server/preflight.ts"));
try {
  await preflight({ info: (m) => console.log(`[hearth] ${m}`) });
} catch (err) {
  if (err?.name !== "StartError") throw err;
  console.error(`[hearth] ${err.message}`);
  process.exit(err.exitCode);
}

const built = path.join(root, "dist/web/index.html");

function newest(p) {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = s.mtimeMs;
  for (const entry of readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

const sources = ["src/web", "src/shared", "vite.config.ts", "package-lock.json"]
  .map((p) => path.join(root, p))
  .filter(existsSync);
// The browser's app, and beside it the server's renderer of first views (both from one vite build).
const renderer = path.join(root, "dist/ssr/entry-server.js");
const stale = !existsSync(built) || !existsSync(renderer) || Math.max(...sources.map(newest)) > statSync(built).mtimeMs;
if (stale && process.env.SERVE_WEB !== "false") {
  console.log("[hearth] Building the web app…");
  const res = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
  if (res.status !== 0) process.exit(res.status ?? 1);
}

await import(path.join(root, "src/server/main.ts"));
