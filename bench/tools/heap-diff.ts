/**
 * What grew between two V8 heap snapshots? Groups each snapshot's objects by kind and name (the
 * constructor for objects, the function for closures) and prints the groups whose total self size
 * changed most, with the change per unit when `--per N` is given (e.g. per stream opened between
 * the two snapshots).
 *
 *   node --max-old-space-size=8192 --import tsx bench/tools/heap-diff.ts before.heapsnapshot after.heapsnapshot [--per 2000] [--top 40]
 *   … --retainers "closure native_bind"   (what holds that group's objects that are new in the second snapshot)
 *
 * The snapshots come from a bench child's "heap:snapshot" command (BENCH_HEAP_SNAPSHOTS=<folder>,
 * bench/children/protocol.ts), or from `node --heapsnapshot-signal`.
 */
import { readFileSync } from "node:fs";

type Snapshot = {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
};

const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Snapshot;

/** A node's group: its kind and name (strings and numbers by kind only). */
function groupOf(snap: Snapshot, i: number): string {
  const fields = snap.snapshot.meta.node_fields;
  const kind = snap.snapshot.meta.node_types[0][snap.nodes[i + fields.indexOf("type")]];
  let name = snap.strings[snap.nodes[i + fields.indexOf("name")]] ?? "";
  if (kind === "string" || kind === "concatenated string" || kind === "sliced string" || kind === "number") name = "";
  if (name.length > 80) name = `${name.slice(0, 77)}…`;
  return `${kind} ${name}`.trim();
}

type Group = { count: number; size: number };

/** Count and total self size of each `kind name` group. */
function groups(snap: Snapshot): Map<string, Group> {
  const width = snap.snapshot.meta.node_fields.length;
  const sizeAt = snap.snapshot.meta.node_fields.indexOf("self_size");
  const out = new Map<string, Group>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const key = groupOf(snap, i);
    const g = out.get(key) ?? { count: 0, size: 0 };
    g.count++;
    g.size += snap.nodes[i + sizeAt];
    out.set(key, g);
  }
  return out;
}

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  return Number(value);
};
const retainersOf = (() => {
  const i = args.indexOf("--retainers");
  return i < 0 ? undefined : args.splice(i, 2)[1];
})();
const per = flag("--per") ?? 1;
const top = flag("--top") ?? 40;
const [beforeFile, afterFile] = args;
if (!beforeFile || !afterFile) {
  console.error("usage: heap-diff.ts before.heapsnapshot after.heapsnapshot [--per N] [--top K]");
  process.exit(2);
}

const beforeSnap = read(beforeFile);
const afterSnap = read(afterFile);
if (retainersOf) {
  retainers(beforeSnap, afterSnap, retainersOf);
  process.exit(0);
}
const before = groups(beforeSnap);
const after = groups(afterSnap);
const rows = [...new Set([...before.keys(), ...after.keys()])].map((key) => {
  const b = before.get(key) ?? { count: 0, size: 0 };
  const a = after.get(key) ?? { count: 0, size: 0 };
  return { key, count: a.count - b.count, size: a.size - b.size };
});
rows.sort((x, y) => Math.abs(y.size) - Math.abs(x.size));
const total = rows.reduce((n, r) => n + r.size, 0);
const fmt = (n: number) => (per === 1 ? `${n}` : (n / per).toFixed(per >= 100 ? 1 : 2));
console.log(`self size change: ${total} bytes${per === 1 ? "" : `, ${(total / per).toFixed(0)} per unit (÷ ${per})`}`);
console.log(`${"bytes".padStart(12)} ${"objects".padStart(10)}  group`);
for (const r of rows.slice(0, top)) console.log(`${fmt(r.size).padStart(12)} ${fmt(r.count).padStart(10)}  ${r.key}`);

/**
 * For the objects of `group` that are new in `after` (ids not in `before`): the chains of what
 * holds them (each step: the holder's group and the edge's name), three holders deep, most common
 * first.
 */
function retainers(before: Snapshot, after: Snapshot, group: string) {
  const nf = after.snapshot.meta.node_fields;
  const width = nf.length;
  const idAt = nf.indexOf("id");
  const edgeCountAt = nf.indexOf("edge_count");
  const ef = after.snapshot.meta.edge_fields;
  const ew = ef.length;
  const edgeTypes = after.snapshot.meta.edge_types[0];
  const [typeAt, nameAt, toAt] = [ef.indexOf("type"), ef.indexOf("name_or_index"), ef.indexOf("to_node")];
  const old = new Set<number>();
  for (let i = 0; i < before.nodes.length; i += before.snapshot.meta.node_fields.length)
    old.add(before.nodes[i + idAt]);
  // Reverse edges: node index → [holder index, edge label].
  const held = new Map<number, [number, string][]>();
  let e = 0;
  for (let i = 0; i < after.nodes.length; i += width) {
    for (let k = 0; k < after.nodes[i + edgeCountAt]; k++, e += ew) {
      const type = edgeTypes[after.edges[e + typeAt]];
      if (type === "weak" || type === "shortcut") continue;
      const label =
        type === "element" || type === "hidden"
          ? `[${after.edges[e + nameAt]}]`
          : after.strings[after.edges[e + nameAt]];
      const to = after.edges[e + toAt];
      let list = held.get(to);
      if (!list) held.set(to, (list = []));
      list.push([i, `${type}:${label}`]);
    }
  }
  const chains = new Map<string, number>();
  let count = 0;
  for (let i = 0; i < after.nodes.length; i += width) {
    if (groupOf(after, i) !== group || old.has(after.nodes[i + idAt])) continue;
    count++;
    const walk = (node: number, depth: number, path: string) => {
      const holders = held.get(node) ?? [];
      if (depth === 3 || holders.length === 0) {
        chains.set(path, (chains.get(path) ?? 0) + 1);
        return;
      }
      // The first two holders of each step: enough to see the pattern without exploding.
      for (const [holder, label] of holders.slice(0, 2))
        walk(holder, depth + 1, `${path} ← ${label} of ${groupOf(after, holder)}`);
    };
    walk(i, 0, group);
  }
  console.log(`${count} new objects of ${group}; chains (count):`);
  for (const [chain, n] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`${String(n).padStart(7)}  ${chain}`);
}
