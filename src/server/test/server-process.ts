import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "#server/lib/free-port";
import { ORIGIN, type TestApp } from "./harness";

export type ServerProcess = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/** `src/server/main.ts` in a child process: a real second Hearth server, as in production. */
export function startServerProcess(env: Record<string, string>): ServerProcess {
  let out = "";
  const child = spawn(process.execPath, ["--import", "./scripts/loader.mjs", "src/server/main.ts"], {
    env: {
      ...process.env,
      SERVE_WEB: "false",
      LOG_LEVEL: "warn",
      SEED_DEMO: "false",
      NODE_ENV: "production",
      // One process each: these tests start the processes they mean (src/server/cluster.test.ts covers WORKERS).
      WORKERS: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

export async function waitHealthy(port: number, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      // A deadline per try: a connection accepted while a process dies is never answered.
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not become healthy");
}

/**
 * A second Hearth server process on a test app's database (same secret and public URL, so the
 * test's sessions work on it), once it answers. Returns the process and its base URL.
 */
export async function startServerOnTestDatabase(
  t: TestApp,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ server: ServerProcess; base: string }> {
  const port = await freePort();
  const server = startServerProcess({
    DATABASE_URL: t.database.url,
    AUTH_SECRET: t.config.authSecret,
    PUBLIC_URL: ORIGIN,
    DATA_DIR: dataDir,
    PORT: String(port),
    ...env,
  });
  await waitHealthy(port);
  return { server, base: `http://127.0.0.1:${port}` };
}
