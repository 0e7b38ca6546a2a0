import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./lib/free-port";
import { startServerProcess, waitHealthy, type ServerProcess } from "./test/server-process";

/**
 * WORKERS (issue 23, src/server/cluster.ts): `WORKERS=2` runs a primary that prepares the bundled
 * database once and two workers that share the port. Connections are spread over both; a worker that
 * dies is replaced while the other keeps serving; SIGTERM stops the workers, then the database.
 */

const childPids = (pid: number): number[] => {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid …: the command may hold spaces, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (ppid === pid && cmd.includes("main.ts")) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
};

/** Socket inodes of established TCP connections whose local port is `port`. */
function acceptedInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, "utf8").split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is ADDR:PORT; state 01 is ESTABLISHED; the inode is column 9.
      if (cols.length > 9 && cols[1].endsWith(`:${hex}`) && cols[3] === "01") inodes.add(cols[9]);
    }
  }
  return inodes;
}

/** Which of `pids` hold at least one of these sockets. */
function holders(pids: number[], inodes: Set<string>): number[] {
  return pids.filter((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
          return link.startsWith("socket:[") && inodes.has(link.slice(8, -1));
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}

async function until<T>(what: string, check: () => T | undefined | false, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(process.platform !== "linux")("WORKERS=2: one primary, two workers on one port", () => {
  let dir: string;
  let port: number;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "hearth-cluster-"));
    port = await freePort();
    server = startServerProcess({ WORKERS: "2", DATA_DIR: path.join(dir, "data"), PORT: String(port) });
    await waitHealthy(port, 120_000);
    // Health answers once one worker listens; the primary says so when both do.
    await until("every worker listening", () => server.output().includes("with 2 workers"), 120_000);
  }, 250_000);

  afterAll(async () => {
    if (server.child.exitCode === null) {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("spreads connections over both workers", async () => {
    const workers = await until("two workers", () => {
      const pids = childPids(server.child.pid!);
      return pids.length === 2 && pids;
    });
    const sockets = await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          new Promise<net.Socket>((resolve, reject) => {
            const s = net.connect(port, "127.0.0.1", () => resolve(s));
            s.once("error", reject);
          }),
      ),
    );
    try {
      // The primary hands accepted connections to the workers in turn.
      const both = await until("connections on both workers", () => {
        const h = holders(workers, acceptedInodes(port));
        return h.length === 2 && h;
      });
      expect(both.sort()).toEqual([...workers].sort());
    } finally {
      for (const s of sockets) s.destroy();
    }
  }, 90_000);

  it("replaces a worker that dies while the other keeps serving", async () => {
    const [victim, survivor] = childPids(server.child.pid!);
    process.kill(victim, "SIGKILL");
    // The survivor serves new connections meanwhile. A connection the primary handed to the victim as
    // it died is lost with it (as any crash loses the requests in flight), so each try has a deadline.
    let fresh = 0;
    const deadline = Date.now() + 60_000;
    while (fresh !== 200 && Date.now() < deadline) {
      fresh = await fetch(`http://127.0.0.1:${port}/api/health`, {
        headers: { connection: "close" },
        signal: AbortSignal.timeout(5_000),
      }).then(
        (res) => res.status,
        () => 0,
      );
      if (fresh !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(fresh).toBe(200);
    // A new worker boots the whole app (slow on a busy 2-core machine).
    const replaced = await until(
      "a replacement worker",
      () => {
        const pids = childPids(server.child.pid!);
        return pids.length === 2 && !pids.includes(victim) && pids;
      },
      150_000,
    );
    expect(replaced).toContain(survivor);
    // The primary's note may reach this process's pipe after the new worker shows in the process list.
    await until(
      "the primary's note",
      () => server.output().includes("A worker stopped (SIGKILL); starting another"),
      30_000,
    );
    await waitHealthy(port, 150_000);
  }, 320_000);

  it("stops the workers, then the bundled database, on SIGTERM", async () => {
    const workers = childPids(server.child.pid!);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain("Stopped cleanly");
    for (const pid of workers) expect(existsSync(`/proc/${pid}`)).toBe(false);
    expect(existsSync(path.join(dir, "data", "postgres", "postmaster.pid"))).toBe(false);
  }, 90_000);
});
