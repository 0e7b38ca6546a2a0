import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./lib/free-port";
import { startServerProcess, waitHealthy } from "./test/server-process";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "hearth-lifecycle-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const start = (port: number) => startServerProcess({ DATA_DIR: dataDir, PORT: String(port) });

const postmasterPid = () =>
  Number(readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("process lifecycle with the bundled PostgreSQL", () => {
  it(
    "recovers after SIGKILL, refuses a second process on the same DATA_DIR, and stops cleanly on SIGTERM",
    { timeout: 120_000 },
    async () => {
      const port1 = await freePort();
      const first = start(port1);
      await waitHealthy(port1);
      const orphan = postmasterPid();
      first.child.kill("SIGKILL");
      await first.exited;
      expect(alive(orphan)).toBe(true); // the postgres child outlives a SIGKILLed parent

      const port2 = await freePort();
      const second = start(port2);
      await waitHealthy(port2);
      expect(alive(orphan)).toBe(false);

      const third = start(await freePort());
      expect(await third.exited).toBe(75);
      expect(third.output()).toMatch(/Another Hearth process \(pid \d+\) is already using the data directory/);

      const running = postmasterPid();
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
      expect(second.output()).toContain("Stopped cleanly");
      expect(alive(running)).toBe(false);
      expect(existsSync(path.join(dataDir, "hearth.pid"))).toBe(false);
    },
  );
});
