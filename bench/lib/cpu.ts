import { readdirSync, readFileSync } from "node:fs";

const USER_HZ = 100;

/** CPU seconds (user + system) used so far by each process in the tree under `root`, by pid. */
export function cpuTree(root: number): Map<number, { name: string; seconds: number }> {
  const stats = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const raw = readFileSync(`/proc/${pid}/stat`, "utf8");
        const name = raw.slice(raw.indexOf("(") + 1, raw.lastIndexOf(")"));
        const f = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
        return [{ pid: Number(pid), ppid: Number(f[1]), name, seconds: (Number(f[11]) + Number(f[12])) / USER_HZ }];
      } catch {
        return []; // gone since the listing
      }
    });
  const inTree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of stats) {
      if (!inTree.has(p.pid) && inTree.has(p.ppid)) {
        inTree.add(p.pid);
        grew = true;
      }
    }
  }
  return new Map(stats.filter((p) => inTree.has(p.pid)).map((p) => [p.pid, { name: p.name, seconds: p.seconds }]));
}

const treeSeconds = (root: number) => [...cpuTree(root).values()].reduce((a, p) => a + p.seconds, 0);

/** Busy CPU seconds of the whole machine so far (steal included: another tenant had the core). */
function machineSeconds(): number {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0];
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return (user + nice + system + irq + softirq + (steal || 0)) / USER_HZ;
  } catch {
    return Number.NaN;
  }
}

/** Average cores used during a window: by the server's process tree, by this harness, by everything else. */
export type CpuShare = { server: number; harness: number; others: number };

/** Starts a measurement window; call the returned function at its end. Linux only (NaN elsewhere). */
export function cpuWindow(serverPid: number | undefined): () => CpuShare {
  const t0 = performance.now();
  const machine0 = machineSeconds();
  const harness0 = process.cpuUsage();
  const server0 = serverPid ? treeSeconds(serverPid) : 0;
  return () => {
    const wall = (performance.now() - t0) / 1000;
    const h = process.cpuUsage(harness0);
    const harness = (h.user + h.system) / 1e6 / wall;
    const server = serverPid ? (treeSeconds(serverPid) - server0) / wall : 0;
    const machine = (machineSeconds() - machine0) / wall;
    return { server, harness, others: Math.max(0, machine - server - harness) };
  };
}
