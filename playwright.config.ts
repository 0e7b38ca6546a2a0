import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const PORT = 3999;
const BASE_URL = `http://localhost:${PORT}`;
// The Stripe-mode journey (e2e/stripe.spec.ts): a second Hearth with Stripe keys, talking to the
// fake Stripe server (scripts/fake-stripe.ts), which sends it signed webhooks.
const STRIPE_HEARTH_PORT = 3998;
const FAKE_STRIPE_PORT = 3997;
const FAKE_STRIPE_WEBHOOK_SECRET = "whsec_e2e_fake_stripe";

// One fresh data directory (bundled PostgreSQL and all) per run, and one beside it (…-stripe) for
// the Stripe-mode server. Workers load this file too:
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
  // As in vitest.config.ts: in CI a failed journey runs once more, and one that then passes is listed as flaky.
  retries: process.env.CI ? 1 : 0,
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
  // Started in this order, each once the one before answers: the web is built once, by the first.
  webServer: [
    {
      command: "npm run build:web && exec node --import ./scripts/loader.mjs src/server/main.ts",
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
    {
      command: "exec node --import tsx scripts/fake-stripe.ts",
      url: `http://127.0.0.1:${FAKE_STRIPE_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "pipe",
      stderr: "pipe",
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
      env: {
        FAKE_STRIPE_PORT: String(FAKE_STRIPE_PORT),
        FAKE_STRIPE_WEBHOOK_SECRET,
        FAKE_STRIPE_WEBHOOK_URL: `http://127.0.0.1:${STRIPE_HEARTH_PORT}/api/payments/webhook`,
      },
    },
    {
      command: "exec node --import ./scripts/loader.mjs src/server/main.ts",
      url: `http://127.0.0.1:${STRIPE_HEARTH_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
      gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
      env: {
        DATA_DIR: `${process.env.HEARTH_E2E_DATA_DIR}-stripe`,
        PORT: String(STRIPE_HEARTH_PORT),
        PUBLIC_URL: `http://localhost:${STRIPE_HEARTH_PORT}`,
        LOG_LEVEL: "warn",
        RATE_LIMITS: "false",
        // Its journey makes its own accounts and community: no demo data to write at startup.
        SEED_DEMO: "false",
        STRIPE_SECRET_KEY: "sk_test_e2e_fake_stripe",
        STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
        STRIPE_API_BASE: `http://127.0.0.1:${FAKE_STRIPE_PORT}`,
        STRIPE_CONNECT: "true",
        PLATFORM_FEE_PERCENT: "10",
      },
    },
  ],
});
