import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const PORT = 3999;
const BASE_URL = `http://localhost:${PORT}`;

// One fresh data directory (bundled PostgreSQL and all) per run. Workers load this file too:
// they inherit the runner's choice through the environment.
if (!process.env.HEARTH_E2E_DATA_DIR) {
  const tmp = path.resolve(".tmp");
  // Directories of earlier runs whose server has stopped (no lock files left) are removed.
  if (existsSync(tmp)) {
    for (const name of readdirSync(tmp)) {
      const dir = path.join(tmp, name);
      if (!name.startsWith("e2e-")) continue;
      if (existsSync(path.join(dir, "hearth.pid")) || existsSync(path.join(dir, "postgres", "postmaster.pid")))
        continue;
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const dir = path.join(tmp, `e2e-${Date.now().toString(36)}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  process.env.HEARTH_E2E_DATA_DIR = dir;
}

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-results.json" }]],
  use: {
    baseURL: BASE_URL,
    viewport: { width: 1280, height: 900 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "npm run build:web && exec node --import tsx src/server/main.ts",
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    stderr: "pipe",
    // SIGTERM lets the server stop its bundled PostgreSQL cleanly.
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    env: {
      DATA_DIR: process.env.HEARTH_E2E_DATA_DIR,
      PORT: String(PORT),
      LOG_LEVEL: "warn",
      // The journeys sign up dozens of accounts from one address, far past the per-address limits;
      // the limits themselves are tested through the API (src/server/**/*.test.ts).
      RATE_LIMITS: "false",
    },
  },
});
