/**
 * Where does a Hearth endpoint spend its CPU? Starts Hearth with --cpu-prof, loads one GET path
 * (optionally signed in as the demo owner), stops it, and prints the top functions and packages by
 * self time.
 *
 *   node --import tsx bench/tools/profile.ts [--signed-in] <path> [seconds] [connections]
 *   node --import tsx bench/tools/profile.ts --signed-in /api/me 8
 *   node --import tsx bench/tools/profile.ts --sign-in [seconds] [connections]   (POST sign-in, 4 connections)
 *   node --import tsx bench/tools/profile.ts --summarize <file.cpuprofile>
 *   node --import tsx bench/tools/profile.ts --dataset communities /api/communities   (on a prepared data set)
 *   node --import tsx bench/tools/profile.ts --signed-in --body '{"type":"text","content":"Hi"}' /api/communities/creator-growth-lab/posts
 *     (--body: POSTs that JSON body instead of a GET; every answer must be 2xx)
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { startHearth, stopAllChildren } from "../lib/children";
import { cpuTree } from "../lib/cpu";
import { prepareDataset } from "../lib/datasets";
import { DEMO_OWNER, signIn } from "../lib/hearth-client";
import { measure, type LoadRequest } from "../lib/load";
import { TMP_DIR } from "../lib/paths";

const SIGN_IN_PATH = "/api/auth/sign-in/email";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

function cpuSplit(before: Map<number, { name: string; seconds: number }>, after: typeof before, wall: number) {
  const byName = new Map<string, number>();
  for (const [pid, a] of after) {
    const used = a.seconds - (before.get(pid)?.seconds ?? 0);
    const key = a.name === "node" ? "node (Hearth server)" : a.name;
    byName.set(key, (byName.get(key) ?? 0) + used);
  }
  const self = process.cpuUsage();
  return [
    ...[...byName.entries()].sort((x, y) => y[1] - x[1]).map(([k, v]) => `${(v / wall).toFixed(2)} cores  ${k}`),
    `(harness incl. autocannon, whole run: ${((self.user + self.system) / 1e6).toFixed(1)} CPU s)`,
  ].join("\n");
}

function where(url: string): string {
  if (!url) return "(native)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const parts = url.slice(nm + "node_modules/".length).split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith("node:")) return "node core";
  const src = url.indexOf("/src/");
  return src >= 0 ? url.slice(src + 1) : url;
}

/**
 * Self and inclusive time from a .cpuprofile, as shares of the busy (non-idle) time, so startup
 * waits do not dilute the numbers. Inclusive: a sample counts once per package or function on its
 * stack.
 */
export function summarize(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    return `${functionName || "(anonymous)"}  ${where(url)}${url ? `:${lineNumber + 1}` : ""}`;
  };
  const selfFns = new Map<string, number>();
  const selfPkgs = new Map<string, number>();
  const inclPkgs = new Map<string, number>();
  const inclOwn = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, us: number) => m.set(k, (m.get(k) ?? 0) + us);
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    if (byId.get(id)!.callFrame.functionName === "(idle)") return;
    busy += us;
    add(selfFns, label(id), us);
    add(selfPkgs, where(byId.get(id)!.callFrame.url), us);
    const pkgs = new Set<string>();
    const own = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const { url } = byId.get(cur)!.callFrame;
      if (!url) continue;
      pkgs.add(where(url));
      if (url.includes("/src/") && !url.includes("node_modules")) own.add(label(cur));
    }
    for (const k of pkgs) add(inclPkgs, k, us);
    for (const k of own) add(inclOwn, k, us);
  });
  const list = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((x, y) => y[1] - x[1])
      .slice(0, n)
      .map(([k, us]) => `${((us / busy) * 100).toFixed(1).padStart(5)}%  ${k}`)
      .join("\n");
  return [
    `${file}: ${(busy / 1e6).toFixed(1)} s busy (percentages are of busy time)`,
    "",
    "Self time by package / source file:",
    list(selfPkgs, 12),
    "",
    "Inclusive time by package / source file (on the stack):",
    list(inclPkgs, 20),
    "",
    "Self time by function:",
    list(selfFns, top),
    "",
    "Inclusive time of Hearth's own functions:",
    list(inclOwn, 12),
  ].join("\n");
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "--summarize") {
    console.log(summarize(args[1]));
    return;
  }
  const datasetAt = args.indexOf("--dataset");
  const dataset = datasetAt >= 0 ? args.splice(datasetAt, 2)[1] : undefined;
  const bodyAt = args.indexOf("--body");
  const body = bodyAt >= 0 ? args.splice(bodyAt, 2)[1] : undefined;
  const template = dataset ? (await prepareDataset(dataset)).dir : undefined;
  const signedIn = args[0] === "--signed-in";
  const signInLoad = args[0] === "--sign-in";
  if (signedIn || signInLoad) args.shift();
  if (signInLoad) args.unshift(SIGN_IN_PATH);
  const [target = "/api/health", secondsArg = "8", connectionsArg = signInLoad ? "4" : "50"] = args;
  const dir = path.join(TMP_DIR, "bench-prof");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const hearth = await startHearth({ name: "profile", template, nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
  try {
    const headers: Record<string, string> = signedIn ? { cookie: await signIn(hearth.url) } : {};
    const before = cpuTree(hearth.pid);
    const t0 = Date.now();
    // A sign-in load and --body are both JSON POSTs; anything else is a GET.
    const postBody = signInLoad ? JSON.stringify(DEMO_OWNER) : body;
    const request: LoadRequest =
      postBody !== undefined
        ? {
            url: `${hearth.url}${target}`,
            method: "POST",
            headers: { ...headers, "content-type": "application/json", origin: hearth.url },
            body: postBody,
            connections: Number(connectionsArg),
          }
        : { url: `${hearth.url}${target}`, headers, connections: Number(connectionsArg) };
    const r = await measure(`${request.method ?? "GET"} ${target}`, request, {
      seconds: Number(secondsArg),
      warmupSeconds: 1,
    });
    const split = cpuSplit(before, cpuTree(hearth.pid), (Date.now() - t0) / 1000);
    console.log(
      `${request.method ?? "GET"} ${target}: ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms`,
    );
    console.log(`CPU used during the load (warm-up included), by process:\n${split}\n`);
  } finally {
    await hearth.stop();
  }
  // With tsx, the module loader thread writes its own (idle) profile: keep the biggest, the main thread's.
  const profiles = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  if (!profiles.length) throw new Error(`no profile written to ${dir}`);
  console.log(summarize(profiles[0]));
}

main().catch(async (err: unknown) => {
  console.error(err);
  await stopAllChildren();
  process.exitCode = 1;
});
