// `npm run dev`: the API server (restarting on change) and Vite's dev server with hot reload.
// The browser talks to Vite on :5173, which proxies /api, /media and /dev to the server on :3000.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = {
  ...process.env,
  NODE_ENV: "development",
  SERVE_WEB: "false",
  PUBLIC_URL: process.env.PUBLIC_URL ?? "http://localhost:5173",
};
const children = [
  spawn(path.join(root, "node_modules/.bin/tsx"), ["watch", "--clear-screen=false", "src/server/main.ts"], {
    cwd: root,
    env,
    stdio: "inherit",
  }),
  spawn(path.join(root, "node_modules/.bin/vite"), ["--port", "5173", "--strictPort"], {
    cwd: root,
    env: process.env,
    stdio: "inherit",
  }),
];
const stop = () => {
  for (const c of children) c.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const c of children)
  c.on("exit", (code) => {
    if (code) {
      stop();
      process.exitCode = code;
    }
  });
